/**
 * Device detail → event management: events the device reported,
 * newest first, filtered by identifier, event type (INFO, ALERT, ERROR) and time; output parameters
 * as name and value read through the published model's event, and events that did not match the
 * model marked with the reason.
 */
import type { JSX } from 'react';
import DatePicker from '@arco-design/web-react/es/DatePicker';
import Form from '@arco-design/web-react/es/Form';
import Select from '@arco-design/web-react/es/Select';
import type { ColumnProps } from '@arco-design/web-react/es/Table';
import Tag from '@arco-design/web-react/es/Tag';
import Tooltip from '@arco-design/web-react/es/Tooltip';
import IconExclamationCircle from '@arco-design/web-react/icon/react-icon/IconExclamationCircle';
import { useTranslation } from 'react-i18next';
import { eventRecordRoutes, eventTypes, type EventRecord } from '../../../server/contract/event-record.ts';
import type { ThingModelParam } from '../../../server/contract/thing-model.ts';
import { EnumSelect } from '../../components/EnumSelect.tsx';
import { EnumTag } from '../../components/EnumTag.tsx';
import { ResourceTable } from '../../components/ResourceTable.tsx';
import { DATE_TIME_FORMAT, epochOf, formatDateTime } from '../../lib/date-format.ts';
import { useList } from '../../lib/use-list.ts';
import { formatValue, rawText, shownText } from '../telemetry/valueFormat.ts';
import type { DeviceTabProps } from '../device/deviceTab.ts';
import { usePublishedModel } from '../thing-model/usePublishedModel.ts';
import './event.css';

export const eventTypeColors: Record<string, string> = { INFO: 'blue', ALERT: 'orange', ERROR: 'red' };


/** Output parameters as `name: value` rows; keys the model does not name are shown as they came. */
function ParamList({ params, outputs, testId }: { params: unknown; outputs: readonly ThingModelParam[]; testId: string }): JSX.Element {
  if (typeof params !== 'object' || params === null || Array.isArray(params)) return <code>{rawText(params)}</code>;
  const entries = Object.entries(params as Record<string, unknown>);
  if (!entries.length) return <span className="ec-event-params__none">—</span>;
  return (
    <dl className="ec-event-params" data-testid={testId}>
      {entries.map(([key, value]) => {
        const param = outputs.find((p) => p.identifier === key);
        return (
          <div key={key}>
            <dt title={key}>{param ? param.functionName : key}</dt>
            <dd>{shownText(formatValue(value, param?.dataType))}</dd>
          </div>
        );
      })}
    </dl>
  );
}

export function EventTab({ device }: DeviceTabProps): JSX.Element {
  const { t } = useTranslation(['eventRecord', 'table']);
  const list = useList(eventRecordRoutes.list, { params: { id: device.id }, syncUrl: false });
  const { model } = usePublishedModel(device.deviceProfileId);
  const events = model?.events ?? [];

  const columns: ColumnProps<EventRecord>[] = [
    { title: t('fields.ts'), dataIndex: 'ts', width: 170, render: (v: number) => formatDateTime(v) },
    {
      title: t('fields.eventName'),
      dataIndex: 'eventName',
      render: (v: string | null, row) => (
        <span className="ec-event-name" data-testid={`event-name-${row.id}`}>
          {v ?? row.identifier}
          {row.flag ? (
            <Tooltip content={row.flag}>
              <Tag size="small" color="orangered" bordered={false} icon={<IconExclamationCircle />} data-testid={`event-flag-${row.id}`}>
                {t('flagged')}
              </Tag>
            </Tooltip>
          ) : null}
        </span>
      ),
    },
    { title: t('fields.identifier'), dataIndex: 'identifier', render: (v: string) => <code>{v}</code> },
    {
      title: t('fields.eventType'),
      dataIndex: 'eventType',
      width: 100,
      render: (v: string, row) => <EnumTag ns="eventRecord" group="type" value={v} colors={eventTypeColors} testId={`event-type-${row.id}`} />,
    },
    {
      title: t('fields.params'),
      dataIndex: 'params',
      render: (v: unknown, row) => (
        <ParamList params={v} outputs={events.find((e) => e.identifier === row.identifier)?.functionJson.outputData ?? []} testId={`event-params-${row.id}`} />
      ),
    },
  ];

  return (
    <section data-testid="event-tab">
      <ResourceTable<EventRecord, typeof list.filters>
        testId="event"
        list={list}
        rowKey="id"
        columns={columns}
        scrollX={900}
        emptyText={t('empty')}
        filters={
          <>
            <Form.Item field="identifier" label={t('fields.identifier')}>
              <Select allowClear allowCreate showSearch placeholder={t('identifierPlaceholder')} style={{ width: 200 }} data-testid="event-filter-identifier">
                {events.map((e) => (
                  <Select.Option key={e.identifier} value={e.identifier}>{`${e.functionName} (${e.identifier})`}</Select.Option>
                ))}
              </Select>
            </Form.Item>
            <Form.Item field="eventType" label={t('fields.eventType')}>
              <EnumSelect ns="eventRecord" group="type" values={eventTypes} allowClear placeholder={t('table:all')} style={{ width: 130 }} testId="event-filter-type" />
            </Form.Item>
            <Form.Item field="startTime" label={t('startTime')} getValueFromEvent={epochOf}>
              <DatePicker showTime format={DATE_TIME_FORMAT} style={{ width: 200 }} data-testid="event-filter-start" />
            </Form.Item>
            <Form.Item field="endTime" label={t('endTime')} getValueFromEvent={epochOf}>
              <DatePicker showTime format={DATE_TIME_FORMAT} style={{ width: 200 }} data-testid="event-filter-end" />
            </Form.Item>
          </>
        }
      />
    </section>
  );
}
