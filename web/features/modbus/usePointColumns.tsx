/** The columns of a Modbus device's point table: name, address, data type, value, time, outcome, actions. */
import Tooltip from '@arco-design/web-react/es/Tooltip';
import type { ColumnProps } from '@arco-design/web-react/es/Table';
import { useTranslation } from 'react-i18next';
import type { ModbusPoint } from '../../../server/contract/modbus.ts';
import { EnumTag } from '../../components/EnumTag.tsx';
import { formatDateTime } from '../../lib/date-format.ts';
import { pointAddress, pointValueText } from './modbusFormat.ts';
import { outcomeColors } from './modbusStyle.ts';
import { PointActions } from './PointActions.tsx';

export function usePointColumns(opts: {
  /** Identifiers being read now (`*` for "read all"). */
  reading: ReadonlySet<string>;
  onRead: (identifiers: string[]) => void;
  onWrite: (point: ModbusPoint) => void;
}): ColumnProps<ModbusPoint>[] {
  const { reading, onRead, onWrite } = opts;
  const { t } = useTranslation('modbus');
  return [
    {
      title: t('points.name'),
      dataIndex: 'name',
      render: (name: string, row) => (
        <span className="ec-modbus-point">
          <span>{name}</span>
          <code>{row.identifier}</code>
        </span>
      ),
    },
    { title: t('points.address'), key: 'address', width: 130, render: (_: unknown, row) => <code>{pointAddress(row.extensionDesc)}</code> },
    {
      title: t('points.dataType'),
      key: 'dataType',
      width: 220,
      render: (_: unknown, row) => <EnumTag ns="thingModel" group="modbusDataType" value={row.extensionDesc.originalDataType} />,
    },
    {
      title: t('points.value'),
      dataIndex: 'value',
      width: 120,
      render: (value: ModbusPoint['value'], row) =>
        row.polled ? (
          <strong className="ec-modbus-value" data-testid={`modbus-value-${row.identifier}`}>
            {pointValueText(value)}
          </strong>
        ) : (
          <span className="ec-modbus-muted">{t('points.writeOnly')}</span>
        ),
    },
    { title: t('points.ts'), dataIndex: 'ts', width: 170, render: (ts: number | null) => (ts ? formatDateTime(ts) : '—') },
    {
      title: t('points.outcome'),
      dataIndex: 'outcome',
      width: 120,
      render: (outcome: ModbusPoint['outcome'], row) =>
        outcome ? (
          <Tooltip content={row.message ?? undefined} disabled={!row.message}>
            <span tabIndex={row.message ? 0 : undefined}>
              <EnumTag ns="modbus" group="outcome" value={outcome} colors={outcomeColors} testId={`modbus-outcome-${row.identifier}`} />
            </span>
          </Tooltip>
        ) : (
          '—'
        ),
    },
    {
      title: t('points.actions'),
      key: 'actions',
      width: 190,
      fixed: 'right',
      render: (_: unknown, row) => <PointActions point={row} reading={reading.has(row.identifier)} onRead={onRead} onWrite={onWrite} />,
    },
  ];
}
