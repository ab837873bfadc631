/**
 * The form items that place a device: product (its device type applies and is shown),
 * organization, and the gateway when the product makes sub-devices (SENSOR). Used by the device
 * drawer and by the import wizard's "basic info" step, inside the caller's Form.
 */
import type { JSX } from 'react';
import Form from '@arco-design/web-react/es/Form';
import Select from '@arco-design/web-react/es/Select';
import type { FormInstance } from '@arco-design/web-react/es/Form';
import { useTranslation } from 'react-i18next';
import type { Device } from '../../../server/contract/device.ts';
import type { ProductOption } from '../../../server/contract/product.ts';
import { EnumTag } from '../../components/EnumTag.tsx';
import { OrganizationTreeSelect } from '../organization/OrganizationTreeSelect.tsx';
import { deviceTypeColors } from './deviceStyle.ts';
import { DeviceSelect } from './DeviceSelect.tsx';

export interface DeviceTargetValues {
  deviceProfileId: string;
  organizationId: string | null;
  gatewayId: string | null;
}

export interface DeviceTargetFieldsProps<V extends DeviceTargetValues> {
  /** The caller's form: it holds these three fields among its own. */
  form: FormInstance<V>;
  products: ProductOption[];
  productsLoading?: boolean;
  /** Prefix of the items' `data-testid`s: `<testId>-product`, `-organization`, `-gateway`. */
  testId: string;
  /** The device being edited: it cannot be its own gateway, and its gateway stays choosable. */
  device?: Device | null;
}

export function DeviceTargetFields<V extends DeviceTargetValues>(props: DeviceTargetFieldsProps<V>): JSX.Element {
  const { form, products, productsLoading, testId, device } = props;
  const { t } = useTranslation(['device', 'errors']);
  const productId = Form.useWatch('deviceProfileId', form) as string | undefined;
  const product = products.find((p) => p.id === productId);
  const isSensor = product?.deviceType === 'SENSOR';

  return (
    <>
      <Form.Item
        field="deviceProfileId"
        label={t('fields.product')}
        rules={[{ required: true, message: t('errors:field.required') }]}
        extra={
          product ? (
            <span className="ec-form-follow" data-testid={`${testId}-type`}>
              {t('form.typeFollows')}
              <EnumTag ns="product" group="deviceType" value={product.deviceType} colors={deviceTypeColors} />
              <EnumTag ns="product" group="transportType" value={product.transportType} />
            </span>
          ) : (
            t('form.productHint')
          )
        }
      >
        <Select
          placeholder={t('form.productPlaceholder')}
          options={products.map((p) => ({ label: p.name, value: p.id }))}
          loading={productsLoading}
          showSearch
          notFoundContent={t('form.noProducts')}
          onChange={() => form.setFieldValue('gatewayId', null as V['gatewayId'])}
          data-testid={`${testId}-product`}
        />
      </Form.Item>
      <Form.Item field="organizationId" label={t('fields.organization')}>
        <OrganizationTreeSelect testId={`${testId}-organization`} />
      </Form.Item>
      {isSensor ? (
        <Form.Item field="gatewayId" label={t('fields.gateway')} extra={t('form.gatewayHint')}>
          <DeviceSelect<string> deviceType="GATEWAY" excludeId={device?.id} placeholder={t('form.gatewayPlaceholder')} emptyText={t('form.noGateways')} allowClear testId={`${testId}-gateway`} style={{ width: '100%' }} />
        </Form.Item>
      ) : null}
    </>
  );
}
