/**
 * The rows a file import refused, with the file's row number, the row's name cell and the reasons
 * (server/contract/device-import.ts, `RejectedRow`): the device import's last step and the Modbus
 * point table import (web/features/modbus/PointTableImport.tsx).
 */
import type { JSX } from 'react';
import Table from '@arco-design/web-react/es/Table';
import { useTranslation } from 'react-i18next';
import type { RejectedRow } from '../../../../server/contract/device-import.ts';

export function RejectedRowsTable({ rows, nameTitle, testId }: { rows: readonly RejectedRow[]; nameTitle: string; testId: string }): JSX.Element {
  const { t } = useTranslation('deviceImport');
  return (
    <Table<RejectedRow>
      size="small"
      rowKey="row"
      border={false}
      data={[...rows]}
      pagination={{ pageSize: 5, size: 'mini', hideOnSinglePage: true }}
      data-testid={testId}
      columns={[
        { title: t('finally.row'), dataIndex: 'row', width: 80 },
        { title: nameTitle, dataIndex: 'name', width: 200, render: (v: string) => v || '—' },
        {
          title: t('finally.reasons'),
          dataIndex: 'reasons',
          render: (reasons: RejectedRow['reasons']) => (
            <ul className="ec-reasons">
              {reasons.map((r, i) => (
                <li key={i}>{r.message}</li>
              ))}
            </ul>
          ),
        },
      ]}
    />
  );
}
