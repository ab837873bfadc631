/**
 * Device manage → Product: products as cards or a table, name search,
 * category / device type / transport / status filters, sorting and paging; create drawer with
 * category selection; set default, single and bulk delete (refused while devices use a product:
 * the server's message says which).
 */
import { useEffect, useState, type JSX } from 'react';
import Button from '@arco-design/web-react/es/Button';
import Card from '@arco-design/web-react/es/Card';
import IconPlus from '@arco-design/web-react/icon/react-icon/IconPlus';
import { useTranslation } from 'react-i18next';
import type { CategoryOption } from '../../../server/contract/category.ts';
import { productRoutes, type Product } from '../../../server/contract/product.ts';
import { ResourceTable } from '../../components/ResourceTable.tsx';
import { useList } from '../../lib/use-list.ts';
import { categoryOptions } from '../category/categoryApi.ts';
import { ProductCard } from './ProductCard.tsx';
import { ProductDrawer } from './ProductDrawer.tsx';
import { ProductFilters } from './ProductFilters.tsx';
import { deleteProducts } from './productApi.ts';
import { useProductColumns } from './useProductColumns.tsx';
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

  const columns = useProductColumns({ listRefresh: list.refresh, onEdit: setEditing });

  const cards = (items: Product[]): JSX.Element => (
    <div className="ec-product__cards">
      {items.map((p) => (
        <ProductCard key={p.id} product={p} onEdit={() => setEditing(p)} onChanged={refresh} />
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
        filters={<ProductFilters categories={categories} />}
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
