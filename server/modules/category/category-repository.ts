/** SQL for `product_category`; the service adds each category's product count, which the product module gives. */
import type { Category, CategoryListQuery, CategoryOption, CategoryType } from '../../contract/category.ts';
import type { Db } from '../../db/sqlite.ts';
import { containsPattern, orderBy, pageWindow, Where } from '../../db/list-query.ts';

interface CategoryRecord {
  id: string;
  name: string;
  domain: string | null;
  status: number;
  type: CategoryType;
  description: string | null;
  create_time: number;
  update_time: number;
}

function toCategory(r: CategoryRecord): CategoryRow {
  return {
    id: r.id,
    name: r.name,
    domain: r.domain,
    status: r.status,
    type: r.type,
    description: r.description,
    createdTime: r.create_time,
    updatedTime: r.update_time,
  };
}

const SELECT = 'SELECT c.* FROM product_category c';
const sortColumns = { name: 'c.name', status: 'c.status', type: 'c.type', createdTime: 'c.create_time' } as const;

export type CategoryRow = Omit<Category, 'productCount'>;

export class CategoryRepository {
  constructor(private readonly db: Db) {}

  page(query: CategoryListQuery): { items: CategoryRow[]; total: number } {
    const where = new Where();
    if (query.name) where.add("c.name LIKE ? ESCAPE '\\'", containsPattern(query.name));
    if (query.status !== undefined) where.add('c.status = ?', query.status);
    if (query.type) where.add('c.type = ?', query.type);
    const { limit, offset } = pageWindow(query.page, query.pageSize);
    const order = orderBy(sortColumns, query.sortField, query.sortOrder, 'c.create_time DESC, c.rowid DESC', 'c.rowid');
    const rows = this.db
      .prepare(`${SELECT} ${where.sql} ${order} LIMIT ? OFFSET ?`)
      .all(...where.params, limit, offset) as unknown as CategoryRecord[];
    const { total } = this.db.prepare(`SELECT COUNT(*) AS total FROM product_category c ${where.sql}`).get(...where.params) as { total: number };
    return { items: rows.map(toCategory), total };
  }

  options(): CategoryOption[] {
    return this.db.prepare('SELECT id, name, status FROM product_category ORDER BY name, id').all() as unknown as CategoryOption[];
  }

  findById(id: string): CategoryRow | undefined {
    const r = this.db.prepare(`${SELECT} WHERE c.id = ?`).get(id) as CategoryRecord | undefined;
    return r && toCategory(r);
  }

  /** The names of those of `ids` that exist. */
  namesOf(ids: readonly string[]): Map<string, string> {
    if (!ids.length) return new Map();
    const rows = this.db.prepare(`SELECT id, name FROM product_category WHERE id IN (${ids.map(() => '?').join(',')})`).all(...ids) as { id: string; name: string }[];
    return new Map(rows.map((r) => [r.id, r.name]));
  }

  idNamed(name: string): string | undefined {
    return (this.db.prepare('SELECT id FROM product_category WHERE name = ?').get(name) as { id: string } | undefined)?.id;
  }

  insert(c: CategoryRow): void {
    this.db
      .prepare(
        `INSERT INTO product_category (id, name, domain, status, type, description, create_time, update_time)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(c.id, c.name, c.domain, c.status, c.type, c.description, c.createdTime, c.updatedTime);
  }

  update(c: CategoryRow): void {
    this.db
      .prepare('UPDATE product_category SET name = ?, domain = ?, status = ?, type = ?, description = ?, update_time = ? WHERE id = ?')
      .run(c.name, c.domain, c.status, c.type, c.description, c.updatedTime, c.id);
  }

  delete(id: string): void {
    this.db.prepare('DELETE FROM product_category WHERE id = ?').run(id);
  }
}
