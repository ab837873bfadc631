/**
 * A product choice that searches `GET /api/yt/device_profile?name=` as the user types, a page at a
 * time, and shows a chosen product's name even when it is not among the loaded rows.
 *
 * @example
 * <Form.Item field="deviceProfileId" label={t('field.product')}>
 *   <ProductSelect placeholder={t('field.productPlaceholder')} testId="scene-trigger-0-product" />
 * </Form.Item>
 */
import type { JSX } from 'react';
import type { Product } from '../../../server/contract/product.ts';
import { RemoteSelect, type RemoteSelectControlProps } from '../../components/RemoteSelect.tsx';
import { fetchEach, REMOTE_PAGE_SIZE, type RemotePage } from '../../components/remote-search.ts';
import { getProduct, listProducts } from './productApi.ts';

export type ProductSelectProps = Omit<RemoteSelectControlProps<string>, 'multiple'>;

const idOf = (p: Product): string => p.id;
const nameOf = (p: Product): string => p.name;
const productsByIds = (ids: string[]): Promise<Product[]> => fetchEach(ids, getProduct);

function fetchPage(name: string, page: number): Promise<RemotePage<Product>> {
  return listProducts({ name: name.trim() || undefined, page, pageSize: REMOTE_PAGE_SIZE, sortField: 'name', sortOrder: 'ascend' });
}

export function ProductSelect(props: ProductSelectProps): JSX.Element {
  return (
    <RemoteSelect<Product, string>
      fetchPage={fetchPage}
      fetchByIds={productsByIds}
      idOf={idOf}
      labelOf={nameOf}
      {...props}
    />
  );
}
