/**
 * Device manage → Product: products as cards or a table, name search,
 * category / device type / transport / status filters, sorting and paging; create drawer with
 * category selection; set default, single and bulk delete (refused while devices use a product:
 * the server's message says which).
 */
import { useEffect, useMemo, useState, type JSX } from 'react';
import Button from '@arco-design/web-react/es/Button';
import Card from '@arco-design/web-react/es/Card';
import Form from '@arco-design/web-react/es/Form';
import Input from '@arco-design/web-react/es/Input';
import Select from '@arco-design/web-react/es/Select';
import type { ColumnProps } from '@arco-design/web-react/es/Table';
import IconPlus from '@arco-design/web-react/icon/react-icon/IconPlus';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import type { CategoryOption } from '../../../server/contract/category.ts';
import {
  deviceTypes,
  productRoutes,
  productStatuses,
  transportTypes,
  type Product,
} from '../../../server/contract/product.ts';
import { EnumSelect } from '../../components/EnumSelect.tsx';
import { EnumTag } from '../../components/EnumTag.tsx';
import { ResourceTable } from '../../components/ResourceTable.tsx';
import { formatDateTime } from '../../lib/date-format.ts';
import { useList } from '../../lib/use-list.ts';
import { categoryOptions } from '../category/categoryApi.ts';
import { ProductActions } from './ProductActions.tsx';
import { ProductDrawer } from './ProductDrawer.tsx';
import { ProductImage } from './ProductImage.tsx';
import { DefaultTag, ProductTags, productStatusColors, transportColors } from './ProductTags.tsx';
import { deleteProducts } from './productApi.ts';
import { productDetailPath } from '../../../server/contract/console-paths.ts';
import './product.css';

export function ProductListPage(): JSX.Element {
  const { t } = useTranslation(['product', 'table']);
  const list = useList(productRoutes.list, {
    urlFilters: { name: 'string', categoryId: 'string', deviceType: 'string', transportType: 'string', status: 'string' },
  });
  const [editing, setEditing] = useState<Product | null | undefined>(undefined);
  const [categories, setCategories] = useState<CategoryOption[]>([]);

  useEffect(() => {
    categoryOptions().then(setCategories, () => undefined);
  }, []);

  const refresh = (): void => void list.refresh();

  const columns = useMemo<ColumnProps<Product>[]>(
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
        render: (_: unknown, row) => <ProductActions product={row} onEdit={() => setEditing(row)} onChanged={refresh} />,
      },
    ],
    // oxlint-disable-next-line react-hooks/exhaustive-deps -- refresh only calls list.refresh, which follows the list's query.
    [t, list.refresh],
  );

  const cards = (items: Product[]): JSX.Element => (
    <div className="ec-product__cards">
      {items.map((p) => (
        <article key={p.id} className="ec-product__card" data-testid={`product-card-${p.id}`}>
          <div className="ec-product__card-head">
            <ProductImage product={p} size={56} />
            <div className="ec-product__card-title">
              <Link href={productDetailPath(p.id)} className="ec-product__card-name" data-testid={`product-card-link-${p.id}`}>
                {p.name}
              </Link>
              <ProductTags product={p} />
            </div>
          </div>
          <dl className="ec-product__card-facts">
            <dt>{t('category')}</dt>
            <dd>{p.categoryName || '—'}</dd>
            <dt>{t('deviceTypeLabel')}</dt>
            <dd>
              <EnumTag ns="product" group="deviceType" value={p.deviceType} />
            </dd>
            <dt>{t('transportTypeLabel')}</dt>
            <dd>
              <EnumTag ns="product" group="transportType" value={p.transportType} colors={transportColors} />
            </dd>
            <dt>{t('deviceCount')}</dt>
            <dd>{t('cardDevices', { count: p.deviceCount })}</dd>
          </dl>
          <div className="ec-product__card-actions">
            <ProductActions product={p} onEdit={() => setEditing(p)} onChanged={refresh} compact />
          </div>
        </article>
      ))}
    </div>
  );

  return (
    <Card title={t('title')} bordered={false} data-testid="product-page">
      <ResourceTable<Product, typeof list.filters>
        testId="product"
        list={list}
        rowKey="id"
        columns={columns}
        scrollX={1300}
        emptyText={t('empty')}
        renderCards={cards}
        defaultView="card"
        onBulkDelete={(ids) => deleteProducts(ids)}
        filters={
          <>
            <Form.Item field="name" label={t('name')}>
              <Input allowClear placeholder={t('namePlaceholder')} data-testid="product-filter-name" style={{ width: 180 }} />
            </Form.Item>
            <Form.Item field="categoryId" label={t('category')}>
              <Select allowClear placeholder={t('anyCategory')} style={{ width: 160 }} data-testid="product-filter-category">
                {categories.map((c) => (
                  <Select.Option key={c.id} value={c.id}>
                    {c.name}
                  </Select.Option>
                ))}
              </Select>
            </Form.Item>
            <Form.Item field="deviceType" label={t('deviceTypeLabel')}>
              <EnumSelect ns="product" group="deviceType" values={deviceTypes} allowClear placeholder={t('anyDeviceType')} testId="product-filter-device-type" style={{ width: 160 }} />
            </Form.Item>
            <Form.Item field="transportType" label={t('transportTypeLabel')}>
              <EnumSelect ns="product" group="transportType" values={transportTypes} allowClear placeholder={t('anyTransport')} testId="product-filter-transport" style={{ width: 140 }} />
            </Form.Item>
            <Form.Item field="status" label={t('statusLabel')}>
              <EnumSelect ns="product" group="status" values={productStatuses} allowClear placeholder={t('anyStatus')} testId="product-filter-status" style={{ width: 130 }} />
            </Form.Item>
          </>
        }
        toolbar={
          <Button type="primary" icon={<IconPlus />} onClick={() => setEditing(null)} data-testid="product-create">
            {t('create')}
          </Button>
        }
      />
      <ProductDrawer
        editing={editing}
        onClose={() => setEditing(undefined)}
        onSaved={refresh}
      />
    </Card>
  );
}
