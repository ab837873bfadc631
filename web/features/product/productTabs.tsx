/**
 * The product detail page's tab bar as data (spec section 2: basic info, thing model). A later
 * issue adds its tab here — one entry with a lazily loaded panel — and never edits the page; the
 * thing-model issue adds `{ key: 'thingModel', titleKey: 'thingModel:tab', sort: 20, panel: … }`.
 * Tabs a version does not have are simply absent.
 *
 * Sort slots: basic info 10, thing model 20, topic list 30, firmware 40.
 */
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import type { Product } from '../../../server/contract/product.ts';

export interface ProductTabProps {
  product: Product;
  /** Opens the product's edit drawer. */
  onEdit: () => void;
  /** A panel changed the product (e.g. publishing a thing model): the header shows the new one. */
  onProductChange: (product: Product) => void;
}

export interface ProductTab {
  /** Also the `?tab=` value, so a tab can be linked to. */
  key: string;
  /** `namespace:key` of the tab title. */
  titleKey: `${string}:${string}`;
  sort: number;
  panel: LazyExoticComponent<ComponentType<ProductTabProps>>;
}

function panel<K extends string>(load: () => Promise<Record<K, ComponentType<ProductTabProps>>>, name: K): ProductTab['panel'] {
  return lazy(() => load().then((m) => ({ default: m[name] })));
}

const tabs: ProductTab[] = [
  {
    key: 'basic',
    titleKey: 'product:tabs.basic',
    sort: 10,
    panel: panel(() => import('./ProductBasicTab.tsx'), 'ProductBasicTab'),
  },
];

/** The tabs in display order. */
export function productTabs(): readonly ProductTab[] {
  return [...tabs].sort((a, b) => a.sort - b.sort);
}

/** The tab a `?tab=` value names, or the first tab. */
export function productTabFor(key: string | null | undefined): ProductTab {
  const all = productTabs();
  return all.find((tab) => tab.key === key) ?? all[0]!;
}

/** The namespaces the tab titles come from (loaded together with the page). */
export function productTabNamespaces(): string[] {
  return [...new Set(productTabs().map((tab) => tab.titleKey.split(':')[0]!))];
}
