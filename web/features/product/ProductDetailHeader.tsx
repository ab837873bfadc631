/** The product detail's header: back, picture, name, tags and facts; publish (drafts), make default, edit. */
import { useState, type JSX } from 'react';
import Button from '@arco-design/web-react/es/Button';
import Message from '@arco-design/web-react/es/Message';
import IconArrowLeft from '@arco-design/web-react/icon/react-icon/IconArrowLeft';
import IconEdit from '@arco-design/web-react/icon/react-icon/IconEdit';
import { useTranslation } from 'react-i18next';
import { consolePaths } from '../../../server/contract/console-paths.ts';
import type { Product } from '../../../server/contract/product.ts';
import { ConfirmButton } from '../../components/ConfirmButton.tsx';
import { EnumTag } from '../../components/EnumTag.tsx';
import { navigateGuarded } from '../../lib/navigation.ts';
import { OtaDialog } from '../ota/OtaDialog.tsx';
import { ProductImage } from './ProductImage.tsx';
import { ProductTags, transportColors } from './ProductTags.tsx';
import { makeDefaultProduct, publishProduct } from './productApi.ts';

export interface ProductDetailHeaderProps {
  product: Product;
  /** The product as the server answered a publish or make-default. */
  onProductChange: (product: Product) => void;
  onEdit: () => void;
}

export function ProductDetailHeader({ product, onProductChange, onEdit }: ProductDetailHeaderProps): JSX.Element {
  const { t } = useTranslation(['product', 'ota']);
  const [otaOpen, setOtaOpen] = useState(false);
  return (
    <div className="ec-product-detail__header">
      <Button
        icon={<IconArrowLeft />}
        aria-label={t('back')}
        title={t('back')}
        onClick={() => void navigateGuarded(consolePaths.product)}
        data-testid="product-detail-back"
      />
      <ProductImage product={product} size={56} />
      <div className="ec-product-detail__title">
        <h2 data-testid="product-detail-name">{product.name}</h2>
        <span className="ec-product__tags">
          <ProductTags product={product} />
          <span className="ec-product-detail__meta">
            {t('transportTypeLabel')}: <EnumTag ns="product" group="transportType" value={product.transportType} colors={transportColors} />
          </span>
          <span className="ec-product-detail__meta">
            {t('deviceTypeLabel')}: <EnumTag ns="product" group="deviceType" value={product.deviceType} />
          </span>
          <span className="ec-product-detail__meta">
            {t('category')}: {product.categoryName ?? t('basic.none')} · {t('cardDevices', { count: product.deviceCount })}
          </span>
        </span>
      </div>
      <div className="ec-product-detail__buttons">
        {product.status === 'DRAFT' ? (
          <ConfirmButton
            danger={false}
            type="primary"
            size="default"
            okText={t('publish')}
            title={t('publishConfirm', { name: product.name })}
            onConfirm={async () => {
              onProductChange(await publishProduct(product.id));
              Message.success(t('published'));
            }}
            testId="product-publish"
          >
            {t('publish')}
          </ConfirmButton>
        ) : null}
        {product.isDefault ? null : (
          <ConfirmButton
            danger={false}
            type="secondary"
            size="default"
            okText={t('setDefault')}
            title={t('setDefaultConfirm', { name: product.name })}
            onConfirm={async () => {
              onProductChange(await makeDefaultProduct(product.id));
              Message.success(t('defaultSet'));
            }}
            testId="product-detail-set-default"
          >
            {t('setDefault')}
          </ConfirmButton>
        )}
        <Button onClick={() => setOtaOpen(true)} data-testid="product-detail-ota">
          {t('ota:open')}
        </Button>
        <Button icon={<IconEdit />} onClick={onEdit} data-testid="product-detail-edit">
          {t('edit')}
        </Button>
      </div>
      <OtaDialog productId={product.id} visible={otaOpen} onClose={() => setOtaOpen(false)} />
    </div>
  );
}
