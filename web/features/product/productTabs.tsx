/**
 * The product detail page's tab bar as data (spec section 2: basic info, thing model). A later
 * issue adds its tab here — one entry with a lazily loaded panel — and never edits the page; the
 * thing-model issue adds `{ key: 'thingModel', titleKey: 'thingModel:tab', sort: 20, panel: … }`.
 * Tabs a version does not have are simply absent. The key is the `?tab=` value, so a tab can be
 * linked to.
 *
 * Sort slots: basic info 10, thing model 20, topic list 30, firmware 40.
 */
import type { ComponentType } from 'react';
import type { Product } from '../../../server/contract/product.ts';
import { lazyPanel, tabRegistry, type TabEntry } from '../../lib/tab-registry.ts';

export interface ProductTabProps {
  product: Product;
  /** Opens the product's edit drawer. */
  onEdit: () => void;
  /** A panel changed the product (e.g. publishing a thing model): the header shows the new one. */
  onProductChange: (product: Product) => void;
}

export type ProductTab = TabEntry<ProductTabProps>;

function panel<K extends string>(load: () => Promise<Record<K, ComponentType<ProductTabProps>>>, name: K): ProductTab['panel'] {
  return lazyPanel(load, name);
}

const tabs: ProductTab[] = [
  {
    key: 'basic',
    titleKey: 'product:tabs.basic',
    sort: 10,
    panel: panel(() => import('./ProductBasicTab.tsx'), 'ProductBasicTab'),
  },
  {
    key: 'thingModel',
    titleKey: 'thingModel:tab',
    sort: 20,
    panel: panel(() => import('../thing-model/ThingModelTab.tsx'), 'ThingModelTab'),
  },
  {
    key: 'topic',
    titleKey: 'thingModel:topic.tab',
    sort: 30,
    panel: panel(() => import('../thing-model/ProductTopicTab.tsx'), 'ProductTopicTab'),
  },
];

export const productTabs = tabRegistry<ProductTabProps>(tabs);
