/**
 * Product detail → Basic info: every field of the product, and the way to edit them; with
 * provisioning on, the key and secret to flash into firmware and the way to replace them.
 */
import type { JSX } from 'react';
import Button from '@arco-design/web-react/es/Button';
import Descriptions from '@arco-design/web-react/es/Descriptions';
import Message from '@arco-design/web-react/es/Message';
import Popconfirm from '@arco-design/web-react/es/Popconfirm';
import IconEdit from '@arco-design/web-react/icon/react-icon/IconEdit';
import { useTranslation } from 'react-i18next';
import { EnumTag } from '../../components/EnumTag.tsx';
import { formatDateTime } from '../../lib/date-format.ts';
import { regenerateProvision } from './productApi.ts';
import { ProductImage } from './ProductImage.tsx';
import { productStatusColors, transportColors } from './ProductTags.tsx';
import type { ProductTabProps } from './productTab.ts';

export function ProductBasicTab({ product, onEdit, onProductChange }: ProductTabProps): JSX.Element {
  const { t } = useTranslation(['product', 'table']);
  const none = t('basic.none');
  const tcp = product.transportType === 'TCP';
  const data = [
    { label: t('name'), value: <span data-testid="product-basic-name">{product.name}</span> },
    { label: t('id'), value: <code>{product.id}</code> },
    { label: t('category'), value: product.categoryName ?? none },
    { label: t('statusLabel'), value: <EnumTag ns="product" group="status" value={product.status} colors={productStatusColors} /> },
    { label: t('deviceTypeLabel'), value: <EnumTag ns="product" group="deviceType" value={product.deviceType} /> },
    { label: t('transportTypeLabel'), value: <EnumTag ns="product" group="transportType" value={product.transportType} colors={transportColors} /> },
    ...(tcp
      ? [
          { label: t('tcpProtocolTypeLabel'), value: <EnumTag ns="product" group="tcpProtocolType" value={product.tcpProtocolType} /> },
          { label: t('tcpAuthTypeLabel'), value: <EnumTag ns="product" group="tcpAuthType" value={product.tcpAuthType} /> },
        ]
      : []),
    { label: t('protocol'), value: product.protocol || none },
    { label: t('isDefault'), value: product.isDefault ? t('table:yes') : t('table:no') },
    { label: t('deviceCount'), value: product.deviceCount },
    { label: t('provision.enabled'), value: product.provisionEnabled ? t('table:yes') : t('table:no') },
    ...(product.provisionDeviceKey
      ? [
          { label: t('provision.key'), value: <code data-testid="product-provision-key">{product.provisionDeviceKey}</code> },
          {
            label: t('provision.secret'),
            value: (
              <span style={{ display: 'inline-flex', alignItems: 'center', gap: 8 }}>
                <code data-testid="product-provision-secret">{product.provisionDeviceSecret}</code>
                <Popconfirm
                  title={t('provision.regenerateConfirm')}
                  onOk={async () => {
                    onProductChange(await regenerateProvision(product.id));
                    Message.success(t('provision.regenerated'));
                  }}
                >
                  <Button size="mini" data-testid="product-provision-regenerate">
                    {t('provision.regenerate')}
                  </Button>
                </Popconfirm>
              </span>
            ),
          },
        ]
      : []),
    { label: t('createdTime'), value: formatDateTime(product.createdTime) },
    { label: t('updatedTime'), value: formatDateTime(product.updatedTime) },
    { label: t('image'), value: <ProductImage product={product} size={72} /> },
    { label: t('description'), value: <span data-testid="product-basic-description">{product.description || none}</span> },
  ];
  return (
    <section data-testid="product-basic-tab">
      <Descriptions
        column={{ xs: 1, md: 2, xl: 3 }}
        border
        layout="horizontal"
        title={
          <span style={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 8 }}>
            {t('basic.title')}
            <Button size="small" icon={<IconEdit />} onClick={onEdit} data-testid="product-basic-edit">
              {t('edit')}
            </Button>
          </span>
        }
        data={data}
        labelStyle={{ color: 'var(--color-text-3)' }}
      />
    </section>
  );
}
