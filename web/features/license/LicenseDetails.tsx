/** What an installed licence grants: customer, expiry, device limit and the device it is bound to. */
import type { JSX } from 'react';
import Descriptions from '@arco-design/web-react/es/Descriptions';
import { useTranslation } from 'react-i18next';
import type { LicensePayload } from '../../../server/contract/license.ts';
import { formatDateTime } from '../../lib/date-format.ts';

export function LicenseDetails({ license, testId }: { license: LicensePayload; testId?: string }): JSX.Element {
  const { t } = useTranslation('guide');
  return (
    <div data-testid={testId}>
      <Descriptions
        column={1}
        size="small"
        border
        data={[
          { label: t('license.customer'), value: license.customer || '-' },
          { label: t('license.expiresAt'), value: formatDateTime(license.expiresAt) },
          { label: t('license.maxDevices'), value: license.maxDevices > 0 ? String(license.maxDevices) : t('license.unlimited') },
          { label: t('license.device'), value: license.device === '*' ? t('license.anyDevice') : license.device },
        ]}
      />
    </div>
  );
}
