/**
 * The alarm list of the alarm record page and of a device's alarm tab: severity, type, device,
 * scene, status, times, count; filters (status, severity, device, time range); single and batch
 * handle (acknowledge) and clear, each confirmed; a row opens the detail drawer.
 */
import { useState, type JSX } from 'react';
import { useTranslation } from 'react-i18next';
import type { Alarm } from '../../../server/contract/alarm.ts';
import { ResourceTable } from '../../components/ResourceTable.tsx';
import type { ListController } from '../../lib/use-list.ts';
import { AlarmBulkActions } from './AlarmBulkActions.tsx';
import { AlarmDetailDrawer } from './AlarmDetailDrawer.tsx';
import { AlarmFilters } from './AlarmFilters.tsx';
import { useAlarmColumns } from './useAlarmColumns.tsx';
import './alarm.css';

export interface AlarmTableProps<F extends object> {
  list: ListController<Alarm, F>;
  /** Offers the device filter (left out in a device's own tab). */
  deviceFilter?: boolean;
  /** The alarm whose detail is open at first (a popup's click). */
  openId?: string | null;
  testId: string;
}

export function AlarmTable<F extends object>({ list, deviceFilter, openId, testId }: AlarmTableProps<F>): JSX.Element {
  const { t } = useTranslation(['alarm', 'table']);
  const [detailId, setDetailId] = useState<string | null>(openId ?? null);

  const columns = useAlarmColumns({ testId, deviceFilter, listRefresh: list.refresh, onDetail: setDetailId });

  return (
    <>
      <ResourceTable<Alarm, F>
        testId={testId}
        list={list}
        rowKey="id"
        columns={columns}
        scrollX={1280}
        emptyText={t('empty')}
        bulkActions={(selected, done) => <AlarmBulkActions selected={selected} done={done} testId={testId} />}
        filters={<AlarmFilters testId={testId} deviceFilter={deviceFilter} />}
      />
      <AlarmDetailDrawer
        alarm={list.items.find((a) => a.id === detailId) ?? null}
        alarmId={detailId}
        onClose={() => setDetailId(null)}
        onChanged={() => void list.refresh()}
      />
    </>
  );
}
