/**
 * Product detail (`consolePaths.productDetail`): a header with name, picture, draft/published
 * state, default flag, transport and device type; publish and make-default; then the tab bar of
 * the tabs the route table gives it (web/routes.tsx, `productTabs`; `?tab=` names the open tab).
 * With the `isShowCreate` segment the edit drawer opens on arrival (once: the segment is then
 * dropped).
 */
import { Suspense, useCallback, useEffect, useState, type JSX } from 'react';
import Card from '@arco-design/web-react/es/Card';
import Message from '@arco-design/web-react/es/Message';
import Spin from '@arco-design/web-react/es/Spin';
import Tabs from '@arco-design/web-react/es/Tabs';
import { useTranslation } from 'react-i18next';
import { useLocation, useParams } from 'wouter';
import { productDetailPath } from '../../../server/contract/console-paths.ts';
import type { Product } from '../../../server/contract/product.ts';
import { ApiError, isCancelled } from '../../lib/api-client.ts';
import { errorMessage } from '../../lib/error-text.ts';
import { confirmLeave } from '../../lib/leave-guard.ts';
import { ProductDetailHeader } from './ProductDetailHeader.tsx';
import { ProductDrawer } from './ProductDrawer.tsx';
import { ProductMissing } from './ProductMissing.tsx';
import { getProduct } from './productApi.ts';
import type { ProductTabProps, ProductTabs } from './productTab.ts';
import './product.css';
import { replaceTabInUrl, tabFromUrl } from '../../lib/tab-query.ts';


export interface ProductDetailPageProps {
  /** The tab bar, in sort order. */
  tabs: ProductTabs;
}

export function ProductDetailPage({ tabs }: ProductDetailPageProps): JSX.Element {
  const { id, isShowCreate } = useParams<{ id: string; isShowCreate?: string }>();
  // The header and the missing panel translate with these; asking here keeps the page suspended
  // until they are loaded, as before those parts had names of their own.
  useTranslation(['product', 'table']);
  // Tab titles come from the namespaces of whichever feature owns the tab (keys known at run time).
  const tabTitle = useTranslation(tabs.namespaces() as unknown as 'product').t as unknown as (key: string) => string;
  const [, navigate] = useLocation();
  const [product, setProduct] = useState<Product | null>(null);
  const [missing, setMissing] = useState<'notFound' | 'failed' | null>(null);
  const [editing, setEditing] = useState(false);
  const [tabKey, setTabKey] = useState(() => tabs.find(tabFromUrl()).key);
  // Until the product is known every tab may be asked for; once it is, only the tabs it has
  // (the Modbus points only for a TCP Modbus product) are shown and can be opened.
  const panelProps: ProductTabProps | undefined = product ? { product, onEdit: () => setEditing(true), onProductChange: setProduct } : undefined;
  const tab = tabs.find(tabKey, panelProps);

  const load = useCallback(async (): Promise<void> => {
    setMissing(null);
    try {
      setProduct(await getProduct(id));
    } catch (err) {
      // Replaced by a newer identical request (a language switch): not a failure.
      if (isCancelled(err)) return;
      const notFound = err instanceof ApiError && err.status === 404;
      setMissing(notFound ? 'notFound' : 'failed');
      if (!notFound) Message.error(errorMessage(err));
    }
  }, [id]);

  useEffect(() => {
    setProduct(null);
    void load();
  }, [load]);

  // `isShowCreate`: open the drawer once, and drop the segment so a reload does not reopen it.
  useEffect(() => {
    if (!product || !isShowCreate) return;
    setEditing(true);
    navigate(`${productDetailPath(product.id)}${window.location.search}`, { replace: true });
  }, [product, isShowCreate, navigate]);

  // Leaving a tab is leaving its page: unsaved edits (and the thing model's unpublished draft) ask first.
  const selectTab = async (key: string): Promise<void> => {
    if (key === tab.key || !(await confirmLeave())) return;
    setTabKey(key);
    replaceTabInUrl(key, tabs.all(panelProps)[0]?.key);
  };

  if (missing) return <ProductMissing missing={missing} onReload={() => void load()} />;
  if (!product) return <Spin block style={{ display: 'block', margin: '64px auto' }} />;

  const Panel = tab.panel;
  return (
    <div className="ec-product-detail" data-testid="product-detail-page">
      <Card bordered={false}>
        <ProductDetailHeader product={product} onProductChange={setProduct} onEdit={() => setEditing(true)} />
      </Card>
      <Card bordered={false} className="ec-product-detail__tabs">
        {/* The open tab's panel is its pane's content, so each tab controls a tabpanel that exists
            and the panel is named by its tab; the other panes stay empty (destroyOnHide). */}
        <Tabs activeTab={tab.key} onChange={(key) => void selectTab(key)} lazyload destroyOnHide>
          {tabs.all(panelProps).map((item) => (
            <Tabs.TabPane key={item.key} title={<span data-testid={`product-tab-${item.key}`}>{tabTitle(item.titleKey)}</span>}>
              {item.key === tab.key ? (
                <Suspense fallback={<Spin block style={{ display: 'block', margin: '32px auto' }} />}>
                  <Panel {...panelProps!} />
                </Suspense>
              ) : null}
            </Tabs.TabPane>
          ))}
        </Tabs>
      </Card>
      <ProductDrawer editing={editing ? product : undefined} onClose={() => setEditing(false)} onSaved={setProduct} />
    </div>
  );
}
