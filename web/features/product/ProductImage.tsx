/** A product's picture, or a neutral placeholder when it has none. */
import type { JSX } from 'react';
import IconStorage from '@arco-design/web-react/icon/react-icon/IconStorage';
import { useTranslation } from 'react-i18next';
import type { Product } from '../../../server/contract/product.ts';

export function ProductImage({ product, size }: { product: Pick<Product, 'image' | 'name'>; size: number }): JSX.Element {
  const { t } = useTranslation('product');
  return (
    <span className="ec-product__image" style={{ width: size, height: size, fontSize: Math.round(size / 2.2) }}>
      {product.image ? <img src={product.image} alt={product.name} loading="lazy" /> : <IconStorage aria-label={t('noImage')} />}
    </span>
  );
}
