/** The product form's device type and transport type, both locked while devices use the product. */
import type { JSX } from 'react';
import Form from '@arco-design/web-react/es/Form';
import { useTranslation } from 'react-i18next';
import { deviceTypes, transportTypes } from '../../../server/contract/product.ts';
import { EnumSelect } from '../../components/EnumSelect.tsx';
import { fieldText, requiredRule } from '../../lib/form-rules.ts';

export interface ProductTypeFieldsProps {
  /** How many devices use the product (then both are locked), or null when they may change. */
  lockedBy: number | null;
}

export function ProductTypeFields({ lockedBy }: ProductTypeFieldsProps): JSX.Element {
  const { t } = useTranslation('product');
  return (
    <>
    <Form.Item
      field="deviceType"
      label={t('deviceTypeLabel')}
      required
      rules={[requiredRule(fieldText('choice'))]}
      extra={lockedBy !== null ? t('deviceTypeLockedHint', { count: lockedBy }) : t('sensorHint')}
    >
      <EnumSelect ns="product" group="deviceType" values={deviceTypes} variant="radio" disabled={lockedBy !== null} testId="product-form-device-type" />
    </Form.Item>
    <Form.Item
      field="transportType"
      label={t('transportTypeLabel')}
      required
      rules={[requiredRule(fieldText('choice'))]}
      extra={lockedBy !== null ? t('transportTypeLockedHint', { count: lockedBy }) : undefined}
    >
      <EnumSelect ns="product" group="transportType" values={transportTypes} variant="radio" disabled={lockedBy !== null} testId="product-form-transport" />
    </Form.Item>
    </>
  );
}
