/**
 * A banner above every console page once fewer than LICENSE_WARN_DAYS days are left, so a
 * gateway is renewed before its console and device routes stop (code 99). Whoever may upload a
 * licence gets the way to the licence tab; closing hides it until the next load.
 */
import { useEffect, useState, type JSX } from 'react';
import Alert from '@arco-design/web-react/es/Alert';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { consolePaths } from '../../../server/contract/console-paths.ts';
import { LICENSE_WARN_DAYS, type LicenseInfo } from '../../../server/contract/license.ts';
import { formatDateTime } from '../../lib/date-format.ts';
import { useMyPermissions } from '../../stores/permissions.ts';
import { findLicense } from './licenseApi.ts';
import './LicenseDetails.css';

export function LicenseExpiryBanner(): JSX.Element | null {
  const { t } = useTranslation('system');
  const [info, setInfo] = useState<LicenseInfo | null>(null);
  const permissions = useMyPermissions();

  useEffect(() => {
    let live = true;
    // Silent: a failure here must not add a message to every page.
    findLicense().then((found) => live && setInfo(found), () => {});
    return () => {
      live = false;
    };
  }, []);

  if (!info || info.status !== 'VALID' || info.daysLeft === null || info.daysLeft >= LICENSE_WARN_DAYS) return null;
  const canRenew = permissions?.includes('license:upload') ?? false;
  return (
    <Alert
      type="warning"
      closable
      banner
      data-testid="license-expiry-banner"
      content={t('license.banner', { days: info.daysLeft, date: formatDateTime(info.expiresAt) })}
      action={
        canRenew ? (
          <Link href={`${consolePaths.systemConfiguration}?tab=license`} className="ec-license-banner__link" data-testid="license-expiry-renew">
            {t('license.bannerAction')}
          </Link>
        ) : undefined
      }
    />
  );
}
