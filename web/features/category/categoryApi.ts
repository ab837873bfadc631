/**
 * Product category calls over the contract. Saves are silent (the drawer shows failures on their
 * fields); deletes let the client show the server's reason (e.g. still used by products).
 */
import {
  categoryRoutes,
  type Category,
  type CategoryBody,
  type CategoryOption,
  type CategoryUpdateBody,
} from '../../../server/contract/category.ts';
import type { DeleteResult } from '../../../server/contract/common.ts';
import { api } from '../../lib/api-client.ts';

export function createCategory(body: CategoryBody): Promise<Category> {
  return api(categoryRoutes.create, { body, silent: true });
}

export function updateCategory(body: CategoryUpdateBody): Promise<Category> {
  return api(categoryRoutes.update, { body, silent: true });
}

export function deleteCategories(ids: string[]): Promise<DeleteResult> {
  return api(categoryRoutes.delete, { body: { ids } });
}

/** Every category for selects (the product drawer). */
export function categoryOptions(): Promise<CategoryOption[]> {
  return api(categoryRoutes.options);
}
