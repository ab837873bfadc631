/** Products' own history retention (migration 0013): product id → days; no row means the global setting. */
import { durably, type Db } from '../../db/sqlite.ts';

export class ProductRetentionStore {
  constructor(private readonly db: Db) {}

  /** Every override, read once per retention run. */
  all(): Map<string, number> {
    const rows = this.db.prepare('SELECT product_id, retention_days FROM product_retention').all() as { product_id: string; retention_days: number }[];
    return new Map(rows.map((r) => [r.product_id, r.retention_days]));
  }

  /** Sets (days) or clears (null) a product's override. */
  set(productId: string, days: number | null): void {
    durably(this.db, () => {
      if (days === null) this.db.prepare('DELETE FROM product_retention WHERE product_id = ?').run(productId);
      else {
        this.db
          .prepare('INSERT INTO product_retention (product_id, retention_days) VALUES (?, ?) ON CONFLICT(product_id) DO UPDATE SET retention_days = excluded.retention_days')
          .run(productId, days);
      }
    });
  }
}
