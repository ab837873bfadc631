/** A product's state at a glance: published or draft, and the default flag. */
import type { JSX } from 'react';
import Tag from '@arco-design/web-react/es/Tag';
import IconStarFill from '@arco-design/web-react/icon/react-icon/IconStarFill';
import { useTranslation } from 'react-i18next';
import type { Product } from '../../../server/contract/product.ts';
import { EnumTag } from '../../components/EnumTag.tsx';

export const productStatusColors: Record<string, string> = { PUBLISHED: 'green', DRAFT: 'gray' };
export const transportColors: Record<string, string> = { TCP: 'cyan', MQTT: 'blue', COAP: 'purple' };

export function DefaultTag(): JSX.Element {
  const { t } = useTranslation('product');
  return (
    <Tag size="small" color="orangered" bordered={false} icon={<IconStarFill />} data-testid="product-default-tag">
      {t('defaultTag')}
    </Tag>
  );
}

export function ProductTags({ product, size = 'small' }: { product: Product; size?: 'small' | 'medium' }): JSX.Element {
  return (
    <span className="ec-product__tags">
      <EnumTag ns="product" group="status" value={product.status} colors={productStatusColors} size={size} testId={`product-status-${product.id}`} />
      {product.isDefault ? <DefaultTag /> : null}
    </span>
  );
}
