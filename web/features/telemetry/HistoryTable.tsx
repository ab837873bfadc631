/** The history drawer's table view: time, property name, value (flagged values marked). */
import type { JSX } from 'react';
import Table from '@arco-design/web-react/es/Table';
import type { ColumnProps } from '@arco-design/web-react/es/Table';
import Tag from '@arco-design/web-react/es/Tag';
import Tooltip from '@arco-design/web-react/es/Tooltip';
import { useTranslation } from 'react-i18next';
import type { ThingModelTsl } from '../../../server/contract/thing-model.ts';
import { formatDateTime } from '../../lib/date-format.ts';
import type { HistoryRow } from './historyQuery.ts';
import { formatValue, shownText } from './valueFormat.ts';

export interface HistoryTableProps {
  rows: HistoryRow[];
  properties: ThingModelTsl['properties'];
  loading: boolean;
  /** False until the first query ran: the empty text then says so. */
  queried: boolean;
}

export function HistoryTable({ rows, properties, loading, queried }: HistoryTableProps): JSX.Element {
  const { t } = useTranslation('telemetry');
  const columns: ColumnProps<HistoryRow>[] = [
    { title: t('history.time'), dataIndex: 'ts', width: 190, render: (v: number) => formatDateTime(v) },
    {
      title: t('history.property'),
      dataIndex: 'key',
      render: (key: string) => properties.find((p) => p.identifier === key)?.functionName ?? key,
    },
    {
      title: t('history.value'),
      dataIndex: 'value',
      render: (value: unknown, row) => (
        <span>
          {shownText(formatValue(value, properties.find((p) => p.identifier === row.key)?.functionJson.dataType))}{' '}
          {row.flag ? (
            <Tooltip content={row.flag}>
              <Tag size="small" color="orangered" bordered={false}>
                {t('flagged')}
              </Tag>
            </Tooltip>
          ) : null}
        </span>
      ),
    },
  ];

  return (
    <Table<HistoryRow>
      rowKey={(row) => `${row.key}\u0000${row.ts}`}
      columns={columns}
      data={rows}
      loading={loading}
      border={false}
      pagination={{ pageSize: 20, showTotal: true, sizeCanChange: true }}
      noDataElement={<span>{queried ? t('chart.empty') : t('history.notQueried')}</span>}
      data-testid="history-table"
    />
  );
}
