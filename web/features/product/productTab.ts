/**
 * What a tab of the product detail page receives. The tabs themselves are listed in the route
 * table (web/routes.tsx, `productTabs`), each panel in the feature that owns it; this file imports
 * no panel, so a panel importing these props makes no import cycle.
 */
import type { Product } from '../../../server/contract/product.ts';
import type { TabEntry, TabRegistry } from '../../lib/tab-registry.ts';

export interface ProductTabProps {
  product: Product;
  /** Opens the product's edit drawer. */
  onEdit: () => void;
  /** A panel changed the product (e.g. publishing a thing model): the header shows the new one. */
  onProductChange: (product: Product) => void;
}

export type ProductTab = TabEntry<ProductTabProps>;
export type ProductTabs = TabRegistry<ProductTabProps>;
