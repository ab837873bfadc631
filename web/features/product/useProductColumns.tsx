/** The columns of the product table: image, name (default tag), category, device type, transport, status, device count, created, actions. */
import { useMemo } from 'react';
import type { ColumnProps } from '@arco-design/web-react/es/Table';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import type { Product } from '../../../server/contract/product.ts';
import { productDetailPath } from '../../../server/contract/console-paths.ts';
import { EnumTag } from '../../components/EnumTag.tsx';
import { formatDateTime } from '../../lib/date-format.ts';
import { ProductActions } from './ProductActions.tsx';
import { ProductImage } from './ProductImage.tsx';
import { DefaultTag, productStatusColors, transportColors } from './ProductTags.tsx';

export function useProductColumns(opts: {
  /** The list's reload, after a row action changed a product. */
  listRefresh: () => Promise<void>;
  onEdit: (product: Product) => void;
}): ColumnProps<Product>[] {
  const { listRefresh, onEdit } = opts;
  const { t } = useTranslation(['product', 'table']);
  const refresh = (): void => void listRefresh();

  return useMemo<ColumnProps<Product>[]>(
    () => [
      {
        title: t('image'),
        key: 'image',
        width: 96,
        render: (_: unknown, row) => <ProductImage product={row} size={40} />,
      },
      {
        title: t('name'),
        dataIndex: 'name',
        sorter: true,
        width: 220,
        render: (name: string, row) => (
          <span className="ec-product__name-cell">
            <Link href={productDetailPath(row.id)} className="ec-product__link" data-testid={`product-link-${row.id}`}>
              {name}
            </Link>
            {row.isDefault ? <DefaultTag /> : null}
          </span>
        ),
      },
      { title: t('category'), dataIndex: 'categoryName', render: (v: string | null) => v || '—' },
      {
        title: t('deviceTypeLabel'),
        dataIndex: 'deviceType',
        render: (v: string) => <EnumTag ns="product" group="deviceType" value={v} />,
      },
      {
        title: t('transportTypeLabel'),
        dataIndex: 'transportType',
        render: (v: string) => <EnumTag ns="product" group="transportType" value={v} colors={transportColors} />,
      },
      {
        title: t('statusLabel'),
        dataIndex: 'status',
        sorter: true,
        render: (v: string, row) => (
          <EnumTag ns="product" group="status" value={v} colors={productStatusColors} testId={`product-status-${row.id}`} />
        ),
      },
      { title: t('deviceCount'), dataIndex: 'deviceCount', align: 'right', width: 90 },
      { title: t('createdTime'), dataIndex: 'createdTime', sorter: true, width: 180, render: (v: number) => formatDateTime(v) },
      {
        title: t('table:actions'),
        key: 'actions',
        width: 280,
        fixed: 'right',
        render: (_: unknown, row) => <ProductActions product={row} onEdit={() => onEdit(row)} onChanged={refresh} />,
      },
    ],
    // oxlint-disable-next-line react-hooks/exhaustive-deps -- refresh only calls list.refresh, which follows the list's query.
    [t, listRefresh],
  );
}
