/** 4G: on or off, APN and SIM PIN (write-only); the modem's IMEI, card number and signal are shown by the page. */
import type { JSX } from 'react';
import Form from '@arco-design/web-react/es/Form';
import Input from '@arco-design/web-react/es/Input';
import Switch from '@arco-design/web-react/es/Switch';
import { useTranslation } from 'react-i18next';

export function CellularFields({ pinSet }: { pinSet: boolean }): JSX.Element {
  const { t } = useTranslation('network');
  return (
    <>
      <Form.Item field="enabled" label={t('field.cellularEnabled')} triggerPropName="checked">
        <Switch data-testid="network-cellular-enabled" />
      </Form.Item>
      <Form.Item field="apn" label={t('field.apn')}>
        <Input autoComplete="off" placeholder="cmnet" data-testid="network-cellular-apn" />
      </Form.Item>
      <Form.Item field="pin" label={t('field.pin')} extra={pinSet ? t('field.pinKeep') : undefined}>
        <Input.Password autoComplete="off" maxLength={8} data-testid="network-cellular-pin" />
      </Form.Item>
    </>
  );
}
