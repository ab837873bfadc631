/**
 * The device drawer's TCP access fields (server/contract/tcp-device.ts), for devices of TCP
 * products: the registration string a DTU sends to identify itself (ASCII or HEX; empty means the
 * device's access token), and, for a Modbus device the gateway dials instead of waiting for a DTU,
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
import {
  ModbusTcpTargetSchema,
  registrationFormats,
  type ModbusTcpTarget,
  type Registration,
  type RegistrationFormat,
} from '../../../server/contract/tcp-device.ts';
import { problemRule } from '../../lib/form-rules.ts';

/** The form's TCP fields (flat, so each has its own rule and test id). */
export interface DeviceTcpValues {
  registrationFormat: RegistrationFormat;
  registration: string;
  modbusTcpEnabled: boolean;
  modbusTcpHost: string;
  modbusTcpPort: number | undefined;
}

export const MODBUS_TCP_PORT_DEFAULT = 502;
// The contract's host rule, read from its schema (one copy of the rule).
const hostSchema = ModbusTcpTargetSchema.properties.host as unknown as { pattern: string; maxLength: number };
const hostPattern = new RegExp(hostSchema.pattern);
const hostMax = hostSchema.maxLength;

export function tcpValuesOf(device: { registration: Registration | null; modbusTcp: ModbusTcpTarget | null } | null): DeviceTcpValues {
  return {
    registrationFormat: device?.registration?.format ?? 'ASCII',
    registration: device?.registration?.value ?? '',
    modbusTcpEnabled: !!device?.modbusTcp,
    modbusTcpHost: device?.modbusTcp?.host ?? '',
    modbusTcpPort: device?.modbusTcp?.port ?? MODBUS_TCP_PORT_DEFAULT,
  };
}

/** The body's `registration` and `modbusTcp`; both null for a device of another transport. */
export function tcpBodyOf(values: Partial<DeviceTcpValues>, tcp: boolean): { registration: Registration | null; modbusTcp: ModbusTcpTarget | null } {
  const value = values.registration?.trim();
  const host = values.modbusTcpHost?.trim();
  return {
    registration: tcp && value ? { format: values.registrationFormat ?? 'ASCII', value } : null,
    modbusTcp: tcp && values.modbusTcpEnabled && host ? { host, port: values.modbusTcpPort ?? MODBUS_TCP_PORT_DEFAULT } : null,
  };
}

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
      <Form.Item label={t('form.registration')} extra={t('form.registrationHint')} className="ec-device-registration">
        <div className="ec-device-registration__row">
          <Form.Item field="registrationFormat" noStyle>
            <Radio.Group type="button" aria-label={t('form.registrationFormat')} data-testid="device-form-registration-format">
              {registrationFormats.map((format) => (
                <Radio key={format} value={format} data-testid={`device-form-registration-format-${format}`}>
                  {format}
                </Radio>
              ))}
            </Radio.Group>
          </Form.Item>
          <Form.Item field="registration" noStyle dependencies={['registrationFormat']} rules={[registrationRule]}>
            <Input
              aria-label={t('form.registration')}
              placeholder={t('form.registrationPlaceholder')}
              autoComplete="off"
              data-testid="device-form-registration"
            />
          </Form.Item>
        </div>
      </Form.Item>
      <Form.Item field="modbusTcpEnabled" label={t('form.modbusTcp')} triggerPropName="checked" extra={t('form.modbusTcpHint')}>
        <Switch data-testid="device-form-modbus-tcp" />
      </Form.Item>
      {dials ? (
        <div className="ec-device-modbus-tcp">
          <Form.Item
            field="modbusTcpHost"
            label={t('form.modbusTcpHost')}
            required
            rules={[{ validator: (v: unknown, cb) => cb(typeof v === 'string' && hostPattern.test(v.trim()) && v.trim().length <= hostMax ? undefined : t('form.modbusTcpHostInvalid')) }]}
          >
            <Input placeholder="192.168.1.20" autoComplete="off" maxLength={hostMax} data-testid="device-form-modbus-tcp-host" />
          </Form.Item>
          <Form.Item field="modbusTcpPort" label={t('form.modbusTcpPort')} required>
            <InputNumber min={1} max={65535} precision={0} style={{ width: 140 }} data-testid="device-form-modbus-tcp-port" />
          </Form.Item>
        </div>
      ) : null}
    </>
  );
}
