/** Rules of product categories: unique names, no delete while products use one. */
import {
  CategoryStatus,
  type Category,
  type CategoryBody,
  type CategoryListQuery,
  type CategoryOption,
  type CategoryPage,
  type CategoryUpdateBody,
} from '../../contract/category.ts';
import type { DeleteResult } from '../../contract/common.ts';
import { transaction, type Db } from '../../db/sqlite.ts';
import { assertNoViolations, notFound, refusedFor } from '../../lib/field-errors.ts';
import { newId } from '../../lib/ids.ts';
import type { CategoryRepository, CategoryRow } from './category-repository.ts';
import { optionalText } from '../../lib/optional-text.ts';

export interface CategoryServiceDeps {
  db: Db;
  categories: CategoryRepository;
}

export class CategoryService {
  private countProducts: (categoryIds: readonly string[]) => Map<string, number> = () => new Map();

  constructor(private readonly deps: CategoryServiceDeps) {}

  /** The product module, built after this one, says how many products each category has (shown, and a delete is refused while any). */
  countProductsWith(count: (categoryIds: readonly string[]) => Map<string, number>): void {
    this.countProducts = count;
  }

  page(query: CategoryListQuery): CategoryPage {
    const { items, total } = this.deps.categories.page(query);
    return { items: this.withProductCounts(items), total };
  }

  options(): CategoryOption[] {
    return this.deps.categories.options();
  }

  get(id: string): Category {
    const category = this.find(id);
    if (!category) throw notFound();
    return category;
  }

  /** The category, or undefined: for the product rules. */
  find(id: string): Category | undefined {
    const row = this.deps.categories.findById(id);
    return row && this.withProductCounts([row])[0];
  }

  /** The names of those of `ids` that exist (a product list shows its categories' names). */
  namesOf(ids: readonly string[]): Map<string, string> {
    return this.deps.categories.namesOf(ids);
  }

  create(body: CategoryBody): Category {
    const now = Date.now();
    return transaction(this.deps.db, () => {
      const row = this.rowOf(newId(), body, now, now);
      this.deps.categories.insert(row);
      return this.get(row.id);
    });
  }

  update(body: CategoryUpdateBody): Category {
    return transaction(this.deps.db, () => {
      const current = this.get(body.id);
      this.deps.categories.update(this.rowOf(current.id, body, current.createdTime, Date.now()));
      return this.get(current.id);
    });
  }

  /** All or nothing: refused while products use a category. Unknown ids are skipped. */
  delete(ids: readonly string[]): DeleteResult {
    return transaction(this.deps.db, () => {
      const targets = [...new Set(ids)].map((id) => this.find(id)).filter((c): c is Category => !!c);
      const used = targets.filter((c) => c.productCount > 0);
      if (used.length) throw refusedFor('error.category.inUse', used.map((c) => c.name));
      for (const c of targets) this.deps.categories.delete(c.id);
      return { deleted: targets.length };
    });
  }

  private withProductCounts(rows: readonly CategoryRow[]): Category[] {
    const counts = this.countProducts(rows.map((r) => r.id));
    return rows.map((r) => ({ ...r, productCount: counts.get(r.id) ?? 0 }));
  }

  private rowOf(id: string, body: CategoryBody, createdTime: number, updatedTime: number): CategoryRow {
    const holder = this.deps.categories.idNamed(body.name);
    assertNoViolations(holder !== undefined && holder !== id ? [{ field: 'name', key: 'error.category.nameTaken' }] : []);
    return {
      id,
      name: body.name,
      domain: optionalText(body.domain),
      status: body.status ?? CategoryStatus.ENABLED,
      type: body.type ?? 'CUSTOM',
      description: optionalText(body.description),
      createdTime,
      updatedTime,
    };
  }
}
