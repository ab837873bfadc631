/**
 * What an installed licence grants: customer, expiry, device limit and the device it is bound to;
 * with `devicesUsed`, also how many devices exist against that limit.
 */
import type { JSX, ReactNode } from 'react';
import Descriptions from '@arco-design/web-react/es/Descriptions';
import { useTranslation } from 'react-i18next';
import type { LicensePayload } from '../../../server/contract/license.ts';
import { formatDateTime } from '../../lib/date-format.ts';
import { deviceUsage } from './deviceUsage.ts';
import './LicenseDetails.css';

export interface LicenseDetailsProps {
  license: LicensePayload;
  /** Devices that exist now (GET /api/license/findLicense); left out, the row is not shown. */
  devicesUsed?: number;
  /** Rows shown first in the same table (the licence dialog's status and serial number). */
  leading?: { label: string; value: ReactNode }[];
  testId?: string;
}

export function LicenseDetails({ license, devicesUsed, leading = [], testId }: LicenseDetailsProps): JSX.Element {
  const { t } = useTranslation('guide');
  const usage = devicesUsed === undefined ? null : deviceUsage(devicesUsed, license.maxDevices);
  return (
    <div data-testid={testId}>
      <Descriptions
        column={1}
        size="small"
        border
        data={[
          ...leading,
          { label: t('license.customer'), value: license.customer || '-' },
          { label: t('license.expiresAt'), value: formatDateTime(license.expiresAt) },
          { label: t('license.maxDevices'), value: license.maxDevices > 0 ? String(license.maxDevices) : t('license.unlimited') },
          ...(usage
            ? [
                {
                  label: t('license.devicesUsed'),
                  value: (
                    <span data-testid="license-devices-used" className={usage.full ? 'ec-license-usage is-full' : 'ec-license-usage'}>
                      {t('license.usage', { used: usage.used, max: usage.max ?? t('license.unlimited') })}
                    </span>
                  ),
                },
              ]
            : []),
          { label: t('license.device'), value: license.device === '*' ? t('license.anyDevice') : license.device },
        ]}
      />
    </div>
  );
}
