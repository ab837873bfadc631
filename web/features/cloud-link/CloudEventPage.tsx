/**
 * System → cloud events: each local change the cloud must learn (device created, renamed,
 * deleted, product changed, attributes changed, connected, disconnected), PENDING until the cloud
 * acknowledged it, then DEPLOYED; FAILED ones with their reason and a retry. Filters: status,
 * entity type, time; counts per status above the table.
 */
import { useState, type JSX } from 'react';
import DatePicker from '@arco-design/web-react/es/DatePicker';
import Form from '@arco-design/web-react/es/Form';
import type { ColumnProps } from '@arco-design/web-react/es/Table';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { cloudEntityTypes, cloudEventStatuses, cloudLinkRoutes, type CloudEvent, type CloudEventPage as Counts } from '../../../server/contract/cloud-link.ts';
import { ConfirmButton } from '../../components/ConfirmButton.tsx';
import { EnumSelect } from '../../components/EnumSelect.tsx';
import { EnumTag } from '../../components/EnumTag.tsx';
import { ResourceTable } from '../../components/ResourceTable.tsx';
import { DATE_TIME_FORMAT, formatDateTime } from '../../lib/date-format.ts';
import { Message } from '../../lib/message.ts';
import { useList } from '../../lib/use-list.ts';
import { retryCloudEvent } from './cloudEventApi.ts';
import './cloud-event.css';

export const cloudEventStatusColors: Record<string, string> = { PENDING: 'orange', DEPLOYED: 'green', FAILED: 'red' };

const epochOf = (_text: string | undefined, date: Dayjs | undefined): number | undefined => date?.valueOf();

export function CloudEventPage(): JSX.Element {
  const { t } = useTranslation(['cloudLink', 'table']);
  const [counts, setCounts] = useState<Counts['counts'] | null>(null);
  // The counts come with every page (they ignore the filters): no second request for them.
  const list = useList(cloudLinkRoutes.events, { urlFilters: { status: 'string', entityType: 'string' }, onLoaded: (page) => setCounts(page.counts) });

  const retry = async (row: CloudEvent): Promise<void> => {
    await retryCloudEvent(row.id);
    Message.success(t('cloudEvent.retried'));
    await list.refresh();
  };

  const columns: ColumnProps<CloudEvent>[] = [
    { title: t('cloudEvent.fields.entityName'), dataIndex: 'entityName', render: (v: string, row) => <span data-testid={`cloud-event-name-${row.id}`}>{v}</span> },
    {
      title: t('cloudEvent.fields.entityType'),
      dataIndex: 'entityType',
      width: 110,
      render: (v: string) => <EnumTag ns="cloudLink" group="cloudEvent.entityType" value={v} />,
    },
    {
      title: t('cloudEvent.fields.event'),
      dataIndex: 'event',
      width: 130,
      render: (v: string) => <EnumTag ns="cloudLink" group="cloudEvent.event" value={v} />,
    },
    {
      title: t('cloudEvent.fields.status'),
      dataIndex: 'status',
      width: 150,
      render: (v: string, row) => <EnumTag ns="cloudLink" group="cloudEvent.status" value={v} colors={cloudEventStatusColors} testId={`cloud-event-status-${row.id}`} />,
    },
    { title: t('cloudEvent.fields.reason'), dataIndex: 'reason', render: (v: string | undefined) => v ?? '-' },
    { title: t('cloudEvent.fields.createdTime'), dataIndex: 'createdTime', width: 170, render: (v: number) => formatDateTime(v) },
    { title: t('cloudEvent.fields.deployedTime'), dataIndex: 'deployedTime', width: 170, render: (v: number | undefined) => (v === undefined ? '-' : formatDateTime(v)) },
    {
      title: t('cloudEvent.fields.actions'),
      key: 'actions',
      width: 90,
      render: (_: unknown, row) =>
        row.status === 'FAILED' ? (
          <ConfirmButton size="mini" type="text" title={t('cloudEvent.retryConfirm')} onConfirm={() => retry(row)} testId={`cloud-event-retry-${row.id}`}>
            {t('cloudEvent.retry')}
          </ConfirmButton>
        ) : null,
    },
  ];

  return (
    <section className="ec-cloud-event" data-testid="cloud-event">
      {counts ? (
        <p className="ec-cloud-event__counts" aria-live="polite" data-testid="cloud-event-counts">
          {t('cloudEvent.counts', counts)}
        </p>
      ) : null}
      <ResourceTable<CloudEvent, typeof list.filters>
        testId="cloud-event"
        list={list}
        rowKey="id"
        columns={columns}
        scrollX={1000}
        emptyText={t('cloudEvent.empty')}
        filters={
          <>
            <Form.Item field="status" label={t('cloudEvent.fields.status')}>
              <EnumSelect ns="cloudLink" group="cloudEvent.status" values={cloudEventStatuses} allowClear placeholder={t('table:all')} style={{ width: 140 }} testId="cloud-event-filter-status" />
            </Form.Item>
            <Form.Item field="entityType" label={t('cloudEvent.fields.entityType')}>
              <EnumSelect ns="cloudLink" group="cloudEvent.entityType" values={cloudEntityTypes} allowClear placeholder={t('table:all')} style={{ width: 140 }} testId="cloud-event-filter-type" />
            </Form.Item>
            <Form.Item field="startTime" label={t('cloudEvent.startTime')} getValueFromEvent={epochOf}>
              <DatePicker showTime format={DATE_TIME_FORMAT} style={{ width: 200 }} data-testid="cloud-event-filter-start" />
            </Form.Item>
            <Form.Item field="endTime" label={t('cloudEvent.endTime')} getValueFromEvent={epochOf}>
              <DatePicker showTime format={DATE_TIME_FORMAT} style={{ width: 200 }} data-testid="cloud-event-filter-end" />
            </Form.Item>
          </>
        }
      />
    </section>
  );
}
