/** WiFi: on or off, client or access point, SSID (picked from a scan or typed), security, password (write-only). */
import { useState, type JSX } from 'react';
import Button from '@arco-design/web-react/es/Button';
import Form from '@arco-design/web-react/es/Form';
import Input from '@arco-design/web-react/es/Input';
import Radio from '@arco-design/web-react/es/Radio';
import Select from '@arco-design/web-react/es/Select';
import Switch from '@arco-design/web-react/es/Switch';
import Table from '@arco-design/web-react/es/Table';
import type { FormInstance } from '@arco-design/web-react/es/Form';
import { useTranslation } from 'react-i18next';
import { wifiModes, wifiSecurities, type WifiNetwork } from '../../../server/contract/network.ts';
import { FormError } from '../../components/FormError.tsx';
import { errorMessage } from '../../lib/error-text.ts';
import { scanWifi } from './networkApi.ts';
import type { SectionValues } from './network-form.ts';

export function WifiFields({ form, passwordSet }: { form: FormInstance<SectionValues>; passwordSet: boolean }): JSX.Element {
  const { t } = useTranslation('network');
  const security = Form.useWatch('security', form) as SectionValues['security'];
  const [networks, setNetworks] = useState<WifiNetwork[] | null>(null);
  const [scanning, setScanning] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  const scan = async (): Promise<void> => {
    setScanning(true);
    setFailure(null);
    try {
      setNetworks(await scanWifi());
    } catch (err) {
      setFailure(errorMessage(err));
    } finally {
      setScanning(false);
    }
  };

  return (
    <>
      <Form.Item field="enabled" label={t('field.wifiEnabled')} triggerPropName="checked">
        <Switch data-testid="network-wifi-enabled" />
      </Form.Item>
      <Form.Item field="mode" label={t('field.wifiMode')}>
        <Radio.Group type="button">
          {wifiModes.map((m) => (
            <Radio key={m} value={m}>
              {t(`wifiMode.${m}`)}
            </Radio>
          ))}
        </Radio.Group>
      </Form.Item>
      <Form.Item field="ssid" label={t('field.ssid')}>
        <Input autoComplete="off" data-testid="network-wifi-ssid" />
      </Form.Item>
      <Form.Item field="security" label={t('field.security')}>
        <Select options={wifiSecurities.map((s) => ({ value: s, label: t(`security.${s}`) }))} data-testid="network-wifi-security" />
      </Form.Item>
      <Form.Item field="password" label={t('field.password')} disabled={security === 'none'} extra={passwordSet ? t('field.passwordKeep') : undefined}>
        <Input.Password autoComplete="new-password" data-testid="network-wifi-password" />
      </Form.Item>
      <Form.Item label={t('scan.title')}>
        <Button loading={scanning} onClick={() => void scan()} data-testid="network-wifi-scan">
          {t('scan.button')}
        </Button>
        <FormError message={failure} testId="network-wifi-scan-error" />
        {networks && (
          <Table
            rowKey="ssid"
            size="small"
            pagination={false}
            data={networks}
            noDataElement={<span>{t('scan.empty')}</span>}
            columns={[
              { title: t('field.ssid'), dataIndex: 'ssid' },
              { title: t('scan.signal'), dataIndex: 'signal', render: (v: number) => `${v}%` },
              { title: t('field.security'), dataIndex: 'security', render: (v: WifiNetwork['security']) => t(`security.${v}`) },
              {
                title: '',
                render: (_: unknown, n: WifiNetwork) => (
                  <Button size="mini" type="text" onClick={() => form.setFieldsValue({ ssid: n.ssid, security: n.security, mode: 'client' })}>
                    {t('scan.use')}
                  </Button>
                ),
              },
            ]}
          />
        )}
      </Form.Item>
    </>
  );
}
