/**
 * Product (device profile) calls over the contract. Saves are silent (the drawer shows failures
 * on their fields); deletes, publish and set-default let the client show the server's reason.
 */
import {
  productRoutes,
  type Product,
  type ProductBody,
  type ProductListQuery,
  type ProductPage,
  type ProductUpdateBody,
} from '../../../server/contract/product.ts';
import type { DeleteResult } from '../../../server/contract/common.ts';
import { api } from '../../lib/api-client.ts';

export function listProducts(query: Partial<ProductListQuery>): Promise<ProductPage> {
  return api(productRoutes.list, { query });
}

export function getProduct(id: string): Promise<Product> {
  return api(productRoutes.get, { params: { id }, silent: true });
}

export function createProduct(body: ProductBody): Promise<Product> {
  return api(productRoutes.create, { body, silent: true });
}

export function updateProduct(body: ProductUpdateBody): Promise<Product> {
  return api(productRoutes.update, { body, silent: true });
}

export function deleteProducts(ids: string[]): Promise<DeleteResult> {
  return api(productRoutes.delete, { body: { ids } });
}

export function publishProduct(id: string): Promise<Product> {
  return api(productRoutes.publish, { params: { id } });
}

export function makeDefaultProduct(id: string): Promise<Product> {
  return api(productRoutes.setDefault, { params: { id } });
}

/** New provision key and secret; firmware holding the old ones can no longer provision. */
export function regenerateProvision(id: string): Promise<Product> {
  return api(productRoutes.regenerateProvision, { params: { id } });
}
