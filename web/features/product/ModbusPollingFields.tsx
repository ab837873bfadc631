/**
 * The product drawer's Modbus polling fields (TCP MODBUS-RTU products): the polling period and the
 * largest gap of unused registers one request may bridge (server/contract/tcp-device.ts). The
 * inputs keep to the contract's ranges, so the form sends nothing the server refuses.
 */
import type { JSX } from 'react';
import Form from '@arco-design/web-react/es/Form';
import InputNumber from '@arco-design/web-react/es/InputNumber';
import { useTranslation } from 'react-i18next';
import { MODBUS_GAP_MAX, POLL_INTERVAL_MAX_MS, POLL_INTERVAL_MIN_MS } from '../../../server/contract/tcp-device.ts';
import { requiredRule } from '../../lib/form-rules.ts';

export function ModbusPollingFields(): JSX.Element {
  const { t } = useTranslation('product');
  return (
    <div className="ec-product-modbus">
      <Form.Item
        field="pollIntervalMs"
        label={t('modbus.pollInterval')}
        required
        rules={[requiredRule()]}
        extra={t('modbus.pollIntervalHint', { min: POLL_INTERVAL_MIN_MS, max: POLL_INTERVAL_MAX_MS })}
      >
        <InputNumber
          min={POLL_INTERVAL_MIN_MS}
          max={POLL_INTERVAL_MAX_MS}
          precision={0}
          step={1000}
          suffix="ms"
          style={{ width: 200 }}
          data-testid="product-form-poll-interval"
        />
      </Form.Item>
      <Form.Item
        field="modbusGapMax"
        label={t('modbus.gapMax')}
        required
        rules={[requiredRule()]}
        extra={t('modbus.gapMaxHint', { max: MODBUS_GAP_MAX })}
      >
        <InputNumber min={0} max={MODBUS_GAP_MAX} precision={0} style={{ width: 200 }} data-testid="product-form-gap-max" />
      </Form.Item>
    </div>
  );
}
