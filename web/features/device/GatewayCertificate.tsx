/**
 * The certificate of the gateway's MQTT over TLS port, which a device pins as its CA file: its
 * port, SHA-256 fingerprint and a download. Absent when TLS is off.
 */
import { useState, type JSX } from 'react';
import Alert from '@arco-design/web-react/es/Alert';
import Button from '@arco-design/web-react/es/Button';
import IconDownload from '@arco-design/web-react/icon/react-icon/IconDownload';
import { useTranslation } from 'react-i18next';
import { GATEWAY_CERTIFICATE_FILE } from '../../../server/contract/device-access.ts';
import { saveBlob } from '../../lib/download.ts';
import { gatewayCertificate, useDeviceAccess } from './deviceAccessApi.ts';

export function GatewayCertificate(): JSX.Element | null {
  const { t } = useTranslation('credentials');
  const access = useDeviceAccess();
  const [downloading, setDownloading] = useState(false);
  if (!access || access.mqttsPort === null) return null;

  const download = async (): Promise<void> => {
    setDownloading(true);
    try {
      saveBlob(await gatewayCertificate(), GATEWAY_CERTIFICATE_FILE);
    } finally {
      setDownloading(false);
    }
  };

  return (
    <Alert
      className="ec-gateway-cert"
      type="info"
      title={t('gatewayCertificate.title')}
      data-testid="gateway-certificate"
      content={
        <>
          <p>{t('gatewayCertificate.hint', { port: access.mqttsPort })}</p>
          <p>
            SHA-256 <code data-testid="gateway-certificate-fingerprint">{access.mqttsFingerprint}</code>
          </p>
        </>
      }
      action={
        <Button size="small" icon={<IconDownload />} loading={downloading} onClick={() => void download()} data-testid="gateway-certificate-download">
          {t('gatewayCertificate.download')}
        </Button>
      }
    />
  );
}
