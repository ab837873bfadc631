/**
 * System configuration → licence: what GET /api/license/findLicense says (status, id, customer,
 * issued, expires, days left, devices against the limit, features) and a renewal upload. The user
 * menu's licence dialog reads the same call.
 */
import { useEffect, useState, type JSX } from 'react';
import Card from '@arco-design/web-react/es/Card';
import Descriptions from '@arco-design/web-react/es/Descriptions';
import Message from '@arco-design/web-react/es/Message';
import { useTranslation } from 'react-i18next';
import type { LicenseInfo } from '../../../server/contract/license.ts';
import { FormError } from '../../components/FormError.tsx';
import { formatDateTime } from '../../lib/date-format.ts';
import { errorMessage } from '../../lib/error-text.ts';
import { LicenseFileUpload } from '../license/LicenseFileUpload.tsx';
import { findLicense } from '../license/licenseApi.ts';
import { useLicenseInstall } from '../license/useLicenseInstall.ts';

export function LicenseCard(): JSX.Element {
  const { t } = useTranslation('system');
  const [info, setInfo] = useState<LicenseInfo | null>(null);
  const { uploading, error, setError, install } = useLicenseInstall((installed) => {
    setInfo(installed);
    Message.success(t('license.installed', { expiresAt: formatDateTime(installed.expiresAt) }));
  });

  useEffect(() => {
    findLicense().then(setInfo, (err: unknown) => setError(errorMessage(err)));
  }, [setError]);


  const rows = info
    ? [
        { label: t('license.status'), value: <span data-testid="license-tab-status">{t(`license.statuses.${info.status}`)}</span> },
        { label: t('basic.deviceSn'), value: info.deviceSn },
        { label: t('license.licenseId'), value: info.licenseId ?? '-' },
        { label: t('license.customer'), value: info.customer || '-' },
        { label: t('license.issuedAt'), value: formatDateTime(info.issuedAt) },
        { label: t('license.expiresAt'), value: formatDateTime(info.expiresAt) },
        { label: t('license.daysLeft'), value: <span data-testid="license-tab-days-left">{info.daysLeft === null ? '-' : t('license.daysLeftValue', { days: info.daysLeft })}</span> },
        { label: t('license.maxDevices'), value: info.maxDevices === null ? '-' : info.maxDevices > 0 ? String(info.maxDevices) : t('license.unlimited') },
        { label: t('license.devicesUsed'), value: String(info.devicesUsed) },
        { label: t('license.features'), value: info.features.join(', ') || t('license.noFeatures') },
      ]
    : [];

  return (
    <Card title={<h2 className="ec-system-config__title">{t('license.title')}</h2>} bordered={false} loading={!info && !error}>
      <div data-testid="license-tab">
        <Descriptions column={{ xs: 1, md: 2 }} size="small" border data={rows} />
        <p className="ec-system-config__renew">{t('license.renew')}</p>
        <LicenseFileUpload testId="license-tab-file" loading={uploading} busyText={t('license.verifying')} disabled={uploading} onRefuse={setError} onFile={install} />
        <FormError message={error} testId="license-tab-error" />
      </div>
    </Card>
  );
}
