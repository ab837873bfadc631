/** A firmware's devices and their update state, live: queued devices wait for the rate limit. */
import type { JSX } from 'react';
import Table from '@arco-design/web-react/es/Table';
import Tag from '@arco-design/web-react/es/Tag';
import { useTranslation } from 'react-i18next';
import type { OtaDevice, OtaState } from '../../../server/contract/ota.ts';
import { formatDateTime } from '../../lib/date-format.ts';
import { useOtaProgress } from './useOtaProgress.ts';

const stateColors: Record<OtaState, string> = {
  QUEUED: 'gray',
  INITIATED: 'arcoblue',
  DOWNLOADING: 'arcoblue',
  DOWNLOADED: 'cyan',
  VERIFIED: 'cyan',
  UPDATING: 'orange',
  UPDATED: 'green',
  FAILED: 'red',
};

export function OtaProgressList({ packageId }: { packageId: string }): JSX.Element {
  const { t } = useTranslation('ota');
  const devices = useOtaProgress(packageId);
  return (
    <Table<OtaDevice>
      rowKey="deviceId"
      size="small"
      loading={devices === null}
      data={devices ?? []}
      pagination={{ pageSize: 10, hideOnSinglePage: true }}
      noDataElement={<span>{t('noDevices')}</span>}
      data-testid={`ota-progress-${packageId}`}
      columns={[
        { title: t('column.device'), dataIndex: 'deviceName' },
        {
          title: t('column.state'),
          dataIndex: 'state',
          render: (state: OtaState, d) => (
            <Tag color={stateColors[state]} data-testid={`ota-state-${d.deviceId}`}>
              {t(`state.${state}`)}
            </Tag>
          ),
        },
        { title: t('column.error'), dataIndex: 'error', render: (e: string | null) => e ?? '—' },
        { title: t('column.updated'), dataIndex: 'updatedTime', render: (ts: number) => formatDateTime(ts) },
      ]}
    />
  );
}
