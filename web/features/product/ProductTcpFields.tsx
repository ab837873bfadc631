/** The product form's TCP fields, shown only for TCP: protocol and auth type (both required), and polling for MODBUS-RTU. */
import type { JSX } from 'react';
import Form from '@arco-design/web-react/es/Form';
import { useTranslation } from 'react-i18next';
import { tcpAuthTypes, tcpProtocolTypes, type TcpProtocolType, type TransportType } from '../../../server/contract/product.ts';
import { EnumSelect } from '../../components/EnumSelect.tsx';
import { requiredRule } from '../../lib/form-rules.ts';
import { ModbusPollingFields } from './ModbusPollingFields.tsx';

export function ProductTcpFields(): JSX.Element {
  const { t } = useTranslation(['product', 'errors']);
  return (
    <Form.Item shouldUpdate noStyle>
      {(values: { transportType?: TransportType; tcpProtocolType?: TcpProtocolType | null }) =>
        values.transportType === 'TCP' ? (
          <>
            <Form.Item
              field="tcpProtocolType"
              label={t('tcpProtocolTypeLabel')}
              required
              rules={[requiredRule(t('errors:product.tcpProtocolTypeRequired'))]}
              extra={t('tcpHint')}
            >
              <EnumSelect ns="product" group="tcpProtocolType" values={tcpProtocolTypes} variant="radio" testId="product-form-tcp-protocol" />
            </Form.Item>
            <Form.Item field="tcpAuthType" label={t('tcpAuthTypeLabel')} required rules={[requiredRule(t('errors:product.tcpAuthTypeRequired'))]}>
              <EnumSelect
                ns="product"
                group="tcpAuthType"
                values={tcpAuthTypes}
                placeholder={t('tcpAuthTypePlaceholder')}
                testId="product-form-tcp-auth"
              />
            </Form.Item>
            {values.tcpProtocolType === 'MODBUS_RTU' ? <ModbusPollingFields /> : null}
          </>
        ) : null
      }
    </Form.Item>
  );
}
