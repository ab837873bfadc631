/** A report's runs, newest first, a page at a time: the period, rows, sizes, downloads, delete. */
import { useMemo, type JSX } from 'react';
import Button from '@arco-design/web-react/es/Button';
import Message from '@arco-design/web-react/es/Message';
import Modal from '@arco-design/web-react/es/Modal';
import type { ColumnProps } from '@arco-design/web-react/es/Table';
import { useTranslation } from 'react-i18next';
import { reportRoutes, type Report, type ReportRun } from '../../../server/contract/report.ts';
import { ConfirmButton } from '../../components/ConfirmButton.tsx';
import { EnumTag } from '../../components/EnumTag.tsx';
import { ResourceTable } from '../../components/ResourceTable.tsx';
import { formatDateTime } from '../../lib/date-format.ts';
import { useList } from '../../lib/use-list.ts';
import { deleteRuns, downloadRun } from './reportApi.ts';

function sizeText(bytes: number): string {
  return bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

function RunsTable({ report }: { report: Report }): JSX.Element {
  const { t } = useTranslation(['reports', 'table']);
  const list = useList(reportRoutes.runs, { params: { id: report.id }, syncUrl: false });
  const remove = async (run: ReportRun): Promise<void> => {
    await deleteRuns([run.id]);
    Message.success(t('runs.deleted'));
    await list.refresh();
  };
  const columns = useMemo<ColumnProps<ReportRun>[]>(
    () => [
      { title: t('runs.period'), key: 'period', render: (_: unknown, run) => `${formatDateTime(run.startTs)} – ${formatDateTime(run.endTs)}` },
      { title: t('runs.trigger'), dataIndex: 'trigger', width: 110, render: (v: string) => <EnumTag ns="reports" group="trigger" value={v} /> },
      {
        title: t('runs.rows'),
        dataIndex: 'rows',
        width: 110,
        render: (rows: number, run) => (rows === 0 ? t('runs.noData') : run.truncated ? t('runs.truncated', { rows }) : rows),
      },
      { title: t('runs.size'), key: 'size', width: 150, render: (_: unknown, run) => `${sizeText(run.xlsxBytes)} / ${sizeText(run.csvBytes)}` },
      {
        title: t('table:actions'),
        key: 'actions',
        width: 190,
        render: (_: unknown, run) => (
          <span style={{ display: 'inline-flex', gap: 4 }}>
            <Button type="text" size="small" onClick={() => void downloadRun(run, report.name, 'xlsx')} data-testid={`report-run-xlsx-${run.id}`}>
              .xlsx
            </Button>
            <Button type="text" size="small" onClick={() => void downloadRun(run, report.name, 'csv')} data-testid={`report-run-csv-${run.id}`}>
              .csv
            </Button>
            <ConfirmButton title={t('runs.deleteConfirm')} onConfirm={() => remove(run)} testId={`report-run-delete-${run.id}`}>
              {t('table:delete')}
            </ConfirmButton>
          </span>
        ),
      },
    ],
    // oxlint-disable-next-line react-hooks/exhaustive-deps -- remove only calls list.refresh, which follows the list's query.
    [t, report, list.refresh],
  );
  return <ResourceTable<ReportRun, object> testId="report-runs" list={list} rowKey="id" columns={columns} emptyText={t('runs.empty')} onBulkDelete={(ids) => deleteRuns(ids)} />;
}

export function ReportRunsModal({ report, onClose }: { report: Report | null; onClose: () => void }): JSX.Element {
  const { t } = useTranslation('reports');
  return (
    <Modal visible={report !== null} title={t('runs.title', { name: report?.name ?? '' })} onCancel={onClose} footer={null} style={{ width: 900 }} unmountOnExit data-testid="report-runs-modal">
      {report ? <RunsTable report={report} /> : null}
    </Modal>
  );
}
