/** A product in the card view: image, name and tags, category, device type, transport, device count, actions. */
import type { JSX } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import type { Product } from '../../../server/contract/product.ts';
import { productDetailPath } from '../../../server/contract/console-paths.ts';
import { EnumTag } from '../../components/EnumTag.tsx';
import { ProductActions } from './ProductActions.tsx';
import { ProductImage } from './ProductImage.tsx';
import { ProductTags, transportColors } from './ProductTags.tsx';

export interface ProductCardProps {
  product: Product;
  onEdit: () => void;
  onChanged: () => void;
}

export function ProductCard({ product, onEdit, onChanged }: ProductCardProps): JSX.Element {
  const { t } = useTranslation('product');
  return (
    <article className="ec-product__card" data-testid={`product-card-${product.id}`}>
      <div className="ec-product__card-head">
        <ProductImage product={product} size={56} />
        <div className="ec-product__card-title">
          <Link href={productDetailPath(product.id)} className="ec-product__card-name" data-testid={`product-card-link-${product.id}`}>
            {product.name}
          </Link>
          <ProductTags product={product} />
        </div>
      </div>
      <dl className="ec-product__card-facts">
        <dt>{t('category')}</dt>
        <dd>{product.categoryName || '—'}</dd>
        <dt>{t('deviceTypeLabel')}</dt>
        <dd>
          <EnumTag ns="product" group="deviceType" value={product.deviceType} />
        </dd>
        <dt>{t('transportTypeLabel')}</dt>
        <dd>
          <EnumTag ns="product" group="transportType" value={product.transportType} colors={transportColors} />
        </dd>
        <dt>{t('deviceCount')}</dt>
        <dd>{t('cardDevices', { count: product.deviceCount })}</dd>
      </dl>
      <div className="ec-product__card-actions">
        <ProductActions product={product} onEdit={onEdit} onChanged={onChanged} compact />
      </div>
    </article>
  );
}
