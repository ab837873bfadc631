/**
 * Visualization → Reports: every report the caller may see, with its schedule and next run; add,
 * edit, run now, delete (confirmed), and each report's runs with their downloads.
 */
import { useMemo, useState, type JSX } from 'react';
import Button from '@arco-design/web-react/es/Button';
import Card from '@arco-design/web-react/es/Card';
import Form from '@arco-design/web-react/es/Form';
import Input from '@arco-design/web-react/es/Input';
import Message from '@arco-design/web-react/es/Message';
import type { ColumnProps } from '@arco-design/web-react/es/Table';
import { useTranslation } from 'react-i18next';
import { reportRoutes, type Report } from '../../../server/contract/report.ts';
import { ConfirmButton } from '../../components/ConfirmButton.tsx';
import { EnumTag } from '../../components/EnumTag.tsx';
import { ResourceTable } from '../../components/ResourceTable.tsx';
import { formatDateTime } from '../../lib/date-format.ts';
import { useList } from '../../lib/use-list.ts';
import { deleteReports, runReport } from './reportApi.ts';
import { ReportDrawer } from './ReportDrawer.tsx';
import { ReportRunsModal } from './ReportRunsModal.tsx';
import { useScheduleText } from './scheduleText.ts';

function ReportFilters(): JSX.Element {
  const { t } = useTranslation('reports');
  return (
    <Form.Item field="name" label={t('fields.name')}>
      <Input allowClear placeholder={t('filter.namePlaceholder')} data-testid="report-filter-name" style={{ width: 200 }} />
    </Form.Item>
  );
}

export function ReportListPage(): JSX.Element {
  const { t } = useTranslation(['reports', 'table']);
  const list = useList(reportRoutes.list, { urlFilters: { name: 'string' } });
  const scheduleText = useScheduleText();
  const [editing, setEditing] = useState<Report | null | undefined>(undefined);
  const [runsOf, setRunsOf] = useState<Report | null>(null);
  const [running, setRunning] = useState<string | null>(null);

  const runNow = async (report: Report): Promise<void> => {
    setRunning(report.id);
    try {
      const run = await runReport(report.id);
      Message.success(run.rows === 0 ? t('ranEmpty') : t('ran', { rows: run.rows }));
      setRunsOf(report);
    } finally {
      setRunning(null);
    }
  };
  const remove = async (report: Report): Promise<void> => {
    await deleteReports([report.id]);
    Message.success(t('deleted'));
    await list.refresh();
  };

  const columns = useMemo<ColumnProps<Report>[]>(
    () => [
      { title: t('fields.name'), dataIndex: 'name', render: (name: string) => <strong>{name}</strong> },
      { title: t('fields.schedule'), key: 'schedule', render: (_: unknown, r) => scheduleText(r.schedule) },
      { title: t('fields.aggregation'), dataIndex: 'aggregation', width: 110, render: (v: string) => <EnumTag ns="reports" group="aggregation" value={v} /> },
      { title: t('fields.series'), key: 'series', width: 90, render: (_: unknown, r) => r.series.length },
      { title: t('fields.nextRun'), dataIndex: 'nextRunTs', width: 180, render: (v: number | null) => (v === null ? t('disabled') : formatDateTime(v)) },
      {
        title: t('table:actions'),
        key: 'actions',
        // Four text buttons; at 280 the last ("Delete", "删除") was cut off in both languages.
        width: 360,
        fixed: 'right',
        render: (_: unknown, r) => (
          <span style={{ display: 'inline-flex', gap: 4 }}>
            <Button type="text" size="small" loading={running === r.id} onClick={() => void runNow(r)} data-testid={`report-run-${r.id}`}>
              {t('runNow')}
            </Button>
            <Button type="text" size="small" onClick={() => setRunsOf(r)} data-testid={`report-runs-${r.id}`}>
              {t('runs.action')}
            </Button>
            <Button type="text" size="small" onClick={() => setEditing(r)} data-testid={`report-edit-${r.id}`}>
              {t('table:edit')}
            </Button>
            <ConfirmButton title={t('deleteConfirm', { name: r.name })} onConfirm={() => remove(r)} testId={`report-delete-${r.id}`}>
              {t('table:delete')}
            </ConfirmButton>
          </span>
        ),
      },
    ],
    // oxlint-disable-next-line react-hooks/exhaustive-deps -- runNow and remove only call list.refresh and set state.
    [t, list.refresh, running, scheduleText],
  );

  return (
    <Card title={t('title')} bordered={false} data-testid="report-page">
      <ResourceTable<Report, object>
        testId="report"
        list={list}
        rowKey="id"
        columns={columns}
        scrollX={1180}
        emptyText={t('empty')}
        onBulkDelete={(ids) => deleteReports(ids)}
        filters={<ReportFilters />}
        toolbar={
          <Button type="primary" onClick={() => setEditing(null)} data-testid="report-create">
            {t('create')}
          </Button>
        }
      />
      <ReportDrawer editing={editing} onClose={() => setEditing(undefined)} onSaved={() => void list.refresh()} />
      <ReportRunsModal report={runsOf} onClose={() => setRunsOf(null)} />
    </Card>
  );
}
