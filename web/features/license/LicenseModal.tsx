/**
 * The licence as a signed-in user sees it from the user menu: status, serial number, what it
 * grants and how many devices are in use against its limit. A new `.lic` can be installed here
 * before the old one runs out or fills up; the server refuses one that ends sooner.
 */
import { useCallback, useEffect, useState, type JSX } from 'react';
import Descriptions from '@arco-design/web-react/es/Descriptions';
import Message from '@arco-design/web-react/es/Message';
import Modal from '@arco-design/web-react/es/Modal';
import Spin from '@arco-design/web-react/es/Spin';
import { useTranslation } from 'react-i18next';
import type { LicenseInfo } from '../../../server/contract/license.ts';
import { FormError } from '../../components/FormError.tsx';
import { formatDateTime } from '../../lib/date-format.ts';
import { errorMessage } from '../../lib/error-text.ts';
import { LicenseDetails } from './LicenseDetails.tsx';
import { LicenseFileUpload } from './LicenseFileUpload.tsx';
import { findLicense } from './licenseApi.ts';
import { useLicenseInstall } from './useLicenseInstall.ts';

export interface LicenseModalProps {
  visible: boolean;
  onClose: () => void;
}

export function LicenseModal({ visible, onClose }: LicenseModalProps): JSX.Element {
  const { t } = useTranslation(['license', 'http']);
  const [info, setInfo] = useState<LicenseInfo | null>(null);
  const { uploading, error, setError, install } = useLicenseInstall(
    (installed) => {
      setInfo(installed);
      Message.success(t('view.installed', { expiresAt: formatDateTime(installed.license?.expiresAt) }));
    },
    () => Message.error(t('http:uploadFailed')),
  );

  const load = useCallback(() => {
    setError(null);
    findLicense().then(
      (found) => {
        setInfo(found);
        Message.success(t('view.fetched'));
      },
      (err: unknown) => {
        const text = t('view.fetchFailed', { message: errorMessage(err) });
        setError(text);
        Message.error(text);
      },
    );
  }, [t, setError]);
  useEffect(() => {
    if (visible) load();
  }, [visible, load]);

  const facts = (shown: LicenseInfo): { label: string; value: JSX.Element | string }[] => [
    { label: t('view.status'), value: <span data-testid="license-view-status">{t(`view.statuses.${shown.status}`)}</span> },
    { label: t('view.deviceSn'), value: shown.deviceSn },
  ];


  return (
    <Modal
      visible={visible}
      title={t('view.title')}
      onCancel={onClose}
      onOk={onClose}
      okText={t('view.close')}
      hideCancel
      unmountOnExit
      okButtonProps={{ 'data-testid': 'license-view-close' } as Record<string, unknown>}
    >
      <div data-testid="license-view">
        {info ? (
          info.license ? (
            <LicenseDetails license={info.license} devicesUsed={info.devicesUsed} leading={facts(info)} testId="license-view-details" />
          ) : (
            <Descriptions column={1} size="small" border data={facts(info)} />
          )
        ) : error ? null : (
          <Spin />
        )}
        <p style={{ margin: '16px 0 8px' }}>{t('view.renew')}</p>
        <LicenseFileUpload
          testId="license-view-file"
          loading={uploading}
          busyText={t('view.verifying')}
          disabled={uploading}
          onRefuse={setError}
          onFile={install}
        />
        <FormError message={error} testId="license-view-error" className="ec-license-view-error" />
      </div>
    </Modal>
  );
}
