/**
 * Operation management → firmware: the gateway's uploaded packages (system, version, file) as the
 * firmware module answers them (`GET /api/yt/firmware`). Read-only: uploading and applying stay in
 * System configuration → firmware update, which guards them (progress, downgrade, restart).
 */
import { useEffect, useState, type JSX } from 'react';
import Card from '@arco-design/web-react/es/Card';
import Table, { type ColumnProps } from '@arco-design/web-react/es/Table';
import { useTranslation } from 'react-i18next';
import type { FirmwareList, FirmwarePackage } from '../../../server/contract/firmware.ts';
import { EnumTag } from '../../components/EnumTag.tsx';
import { FormError } from '../../components/FormError.tsx';
import { formatBytes } from '../../components/file-check.ts';
import { formatDateTime } from '../../lib/date-format.ts';
import { errorMessage } from '../../lib/error-text.ts';
import { loadFirmware } from '../system-config/firmwareApi.ts';

const stateColors: Record<string, string> = { staged: 'arcoblue', trial: 'orange', installed: 'green', rolledBack: 'red' };

export function FirmwareManagePage(): JSX.Element {
  const { t } = useTranslation('operation');
  const [list, setList] = useState<FirmwareList | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    loadFirmware().then(setList, (err: unknown) => setError(errorMessage(err)));
  }, []);

  const columns: ColumnProps<FirmwarePackage>[] = [
    { title: t('firmware.system'), dataIndex: 'arch', width: 100 },
    { title: t('firmware.version'), dataIndex: 'version', render: (v: string) => <strong>{v}</strong> },
    {
      title: t('firmware.file'),
      dataIndex: 'sha256',
      render: (sha: string, row) => <code title={sha}>{`${sha.slice(0, 12)}… · ${formatBytes(row.size)}`}</code>,
    },
    {
      title: t('firmware.state'),
      dataIndex: 'status',
      width: 120,
      render: (v: string, row) => <EnumTag ns="operation" group="firmware.states" value={v} colors={stateColors} testId={`firmware-state-${row.id}`} />,
    },
    { title: t('firmware.uploadedAt'), dataIndex: 'uploadedAt', width: 180, render: (v: number) => formatDateTime(v) },
  ];

  return (
    <Card title={t('firmware.title')} bordered={false} data-testid="op-firmware-page">
      <p className="ec-op-hint">{t('firmware.hint')}</p>
      {list ? <p data-testid="op-firmware-running">{t('firmware.running', { version: list.runningVersion })}</p> : null}
      <FormError message={error} testId="op-firmware-error" />
      <Table<FirmwarePackage>
        rowKey="id"
        loading={!list && !error}
        columns={columns}
        data={list?.packages ?? []}
        pagination={{ pageSize: 10, hideOnSinglePage: true }}
        noDataElement={<span data-testid="op-firmware-empty">{t('firmware.empty')}</span>}
        data-testid="op-firmware-table"
      />
    </Card>
  );
}
