/**
 * The device drawer's TCP access fields (server/contract/tcp-device.ts), for devices of TCP
 * products: the registration string a DTU sends to identify itself (ASCII or HEX; empty means a
 * code the gateway generates, or on an edit the current one), and, for a Modbus device the gateway dials instead of waiting for a DTU,
 * its Modbus TCP host and port.
 */
import type { JSX } from 'react';
import Form from '@arco-design/web-react/es/Form';
import Input from '@arco-design/web-react/es/Input';
import InputNumber from '@arco-design/web-react/es/InputNumber';
import Radio from '@arco-design/web-react/es/Radio';
import Switch from '@arco-design/web-react/es/Switch';
import { useTranslation } from 'react-i18next';
import { registrationProblem } from '../../../server/contract/rules/tcp-registration.ts';
import { registrationFormats, type RegistrationFormat } from '../../../server/contract/tcp-device.ts';
import { problemRule } from '../../lib/form-rules.ts';
import { MODBUS_TCP_HOST_MAX, modbusTcpHostValid } from './tcpForm.ts';

export function DeviceTcpFields(): JSX.Element {
  const { t } = useTranslation('device');
  const { form } = Form.useFormContext();
  const dials = Form.useWatch('modbusTcpEnabled', form) as boolean | undefined;
  const registrationRule = problemRule((value) => {
    const text = typeof value === 'string' ? value.trim() : '';
    const format = (form.getFieldValue('registrationFormat') as RegistrationFormat | undefined) ?? 'ASCII';
    return text ? registrationProblem({ format, value: text }) : null;
  });
  return (
    <>
      <div className="ec-device-registration">
        <Form.Item field="registrationFormat" label={t('form.registrationFormat')}>
          <Radio.Group type="button" data-testid="device-form-registration-format">
            {registrationFormats.map((format) => (
              <Radio key={format} value={format} data-testid={`device-form-registration-format-${format}`}>
                {format}
              </Radio>
            ))}
          </Radio.Group>
        </Form.Item>
        <Form.Item field="registration" label={t('form.registration')} extra={t('form.registrationHint')} dependencies={['registrationFormat']} rules={[registrationRule]}>
          <Input placeholder={t('form.registrationPlaceholder')} autoComplete="off" data-testid="device-form-registration" />
        </Form.Item>
      </div>
      <Form.Item field="modbusTcpEnabled" label={t('form.modbusTcp')} triggerPropName="checked" extra={t('form.modbusTcpHint')}>
        <Switch data-testid="device-form-modbus-tcp" />
      </Form.Item>
      {dials ? (
        <div className="ec-device-modbus-tcp">
          <Form.Item
            field="modbusTcpHost"
            label={t('form.modbusTcpHost')}
            required
            rules={[{ validator: (v: unknown, cb) => cb(modbusTcpHostValid(v) ? undefined : t('form.modbusTcpHostInvalid')) }]}
          >
            <Input placeholder="192.168.1.20" autoComplete="off" maxLength={MODBUS_TCP_HOST_MAX} data-testid="device-form-modbus-tcp-host" />
          </Form.Item>
          <Form.Item field="modbusTcpPort" label={t('form.modbusTcpPort')} required>
            <InputNumber min={1} max={65535} precision={0} style={{ width: 140 }} data-testid="device-form-modbus-tcp-port" />
          </Form.Item>
        </div>
      ) : null}
    </>
  );
}
