/**
 * Device detail → command delivery records:
 * issuance time, command type, call type, way, status (all eight), content, response type and the
 * device's answer in a JSON viewer; refresh and paging. Status changes arrive live over /api/ws
 * (COMMANDS): a row follows its command QUEUED → SENT → DELIVERED → SUCCESSFUL without a reload;
 * a command that is new to the page reloads it. Without the live subscription (an upstream that
 * does not know it) the list is polled while a command is under way.
 * The header holds command delivery and the reboot button (asked first): the device page has no
 * slot for header actions, so reboot lives here.
 */
import { useEffect, useMemo, useRef, useState, type JSX } from 'react';
import Button from '@arco-design/web-react/es/Button';
import Form from '@arco-design/web-react/es/Form';
import Message from '@arco-design/web-react/es/Message';
import Modal from '@arco-design/web-react/es/Modal';
import type { ColumnProps } from '@arco-design/web-react/es/Table';
import Tooltip from '@arco-design/web-react/es/Tooltip';
import IconPoweroff from '@arco-design/web-react/icon/react-icon/IconPoweroff';
import IconSend from '@arco-design/web-react/icon/react-icon/IconSend';
import { useTranslation } from 'react-i18next';
import {
  commandRoutes,
  commandStatuses,
  commandTypes,
  finalCommandStatuses,
  type Command,
} from '../../../server/contract/command.ts';
import { ConfirmButton } from '../../components/ConfirmButton.tsx';
import { EnumSelect } from '../../components/EnumSelect.tsx';
import { EnumTag } from '../../components/EnumTag.tsx';
import { ResourceTable } from '../../components/ResourceTable.tsx';
import { formatDateTime } from '../../lib/date-format.ts';
import { useList } from '../../lib/use-list.ts';
import { laterCommand, mergeCommands, useCommandUpdates } from '../../lib/use-live.ts';
import type { DeviceTabProps } from '../device/deviceTab.ts';
import { CodeBlock, prettyJson } from '../../components/CodeBlock.tsx';
import { usePublishedModel } from '../thing-model/usePublishedModel.ts';
import { rebootDevice, withdrawCommand } from './commandApi.ts';
import { CommandModal } from './CommandModal.tsx';
import { commandStatusColors, commandTypeColors } from './commandStyle.ts';
import './command.css';

/** Without live updates: how often the list reloads while a command waits for its outcome. */
const PENDING_POLL_MS = 2_000;

export function CommandTab({ device }: DeviceTabProps): JSX.Element {
  const { t } = useTranslation(['command', 'table']);
  const list = useList(commandRoutes.list, { params: { id: device.id }, syncUrl: false });
  const { model } = usePublishedModel(device.deviceProfileId);
  const [sending, setSending] = useState(false);
  const [viewing, setViewing] = useState<{ title: string; text: string } | null>(null);
  // Records pushed live since the page loaded, by id; a row shows whichever copy is later.
  const [live, setLive] = useState<Record<string, Command>>({});
  const shownIds = useRef(new Set<string>());
  shownIds.current = new Set(list.items.map((c) => c.id));
  const liveError = useCommandUpdates(device.id, {
    onChange: (changed) => {
      setLive((current) => mergeCommands(current, changed));
      if (changed.some((c) => !shownIds.current.has(c.id))) void list.refresh();
    },
    onResumed: () => void list.refresh(),
  });
  const items = useMemo(() => list.items.map((c) => (live[c.id] ? laterCommand(live[c.id]!, c) : c)), [list.items, live]);
  const pending = items.some((c) => !finalCommandStatuses.includes(c.status));

  // Outcomes arrive on the server's own time: without live updates, poll while something is under way.
  useEffect(() => {
    if (!pending || !liveError) return undefined;
    const timer = setInterval(() => void list.refresh(), PENDING_POLL_MS);
    return () => clearInterval(timer);
    // oxlint-disable-next-line react-hooks/exhaustive-deps -- `list` is a new object each render; list.refresh is what the timer calls.
  }, [pending, liveError, list.refresh]);

  const reboot = async (): Promise<void> => {
    const command = await rebootDevice(device.id);
    if (command.status === 'FAILED') Message.error(t('reboot.failed'));
    else Message.success(t('reboot.sent'));
    await list.refresh();
  };

  const columns: ColumnProps<Command>[] = [
    { title: t('fields.createdTime'), dataIndex: 'createdTime', width: 100, render: (v: number) => formatDateTime(v) },
    {
      title: t('fields.commandType'),
      dataIndex: 'commandType',
      width: 110,
      render: (v: string) => <EnumTag ns="command" group="type" value={v} colors={commandTypeColors} />,
    },
    { title: t('fields.callType'), dataIndex: 'callType', width: 100, render: (v: string) => <EnumTag ns="command" group="callType" value={v} /> },
    { title: t('fields.way'), dataIndex: 'way', width: 100, render: (v: string) => <EnumTag ns="command" group="way" value={v} /> },
    {
      title: t('fields.status'),
      dataIndex: 'status',
      width: 110,
      render: (v: string, row) => (
        // When it went out, arrived (DELIVERED) and was answered: the steps behind the status.
        <Tooltip
          disabled={row.sentTime === null}
          content={(['sentTime', 'deliveredTime', 'respondedTime'] as const)
            .filter((k) => row[k] !== null)
            .map((k) => <div key={k}>{`${t(`fields.${k}`)}: ${formatDateTime(row[k]!)}`}</div>)}
        >
          <span>
            <EnumTag ns="command" group="status" value={v} colors={commandStatusColors} testId={`cmd-status-${row.requestId}`} />
          </span>
        </Tooltip>
      ),
    },
    {
      // Who issued it: a user, a scene's action (named as it was then) or the cloud.
      title: t('fields.source'),
      dataIndex: 'source',
      width: 140,
      render: (v: Command['source'], row) => (
        <span data-testid={`cmd-source-${row.requestId}`}>
          {v === null ? t('source.user') : v.type === 'CLOUD' ? t('source.cloud') : t('source.scene', { name: v.name })}
        </span>
      ),
    },
    {
      title: t('fields.content'),
      dataIndex: 'content',
      width: 200,
      render: (v: string, row) => (
        <Button type="text" size="mini" onClick={() => setViewing({ title: t('fields.content'), text: v })} data-testid={`cmd-content-${row.requestId}`}>
          <span className="ec-cmd-content">{v}</span>
        </Button>
      ),
    },
    { title: t('fields.responseType'), dataIndex: 'responseType', width: 110, render: (v: string | null) => <EnumTag ns="command" group="responseType" value={v} /> },
    {
      title: t('fields.responseContent'),
      dataIndex: 'responseContent',
      width: 200,
      render: (v: string | null, row) =>
        v ? (
          <Button type="text" size="mini" onClick={() => setViewing({ title: t('fields.responseContent'), text: v })} data-testid={`cmd-response-${row.requestId}`}>
            <span className="ec-cmd-content">{v}</span>
          </Button>
        ) : (
          '—'
        ),
    },
    {
      title: t('table:actions'),
      key: 'actions',
      width: 100,
      fixed: 'right',
      render: (_: unknown, row) =>
        finalCommandStatuses.includes(row.status) ? null : (
          <ConfirmButton
            testId={`cmd-withdraw-${row.requestId}`}
            title={t('withdraw.confirm')}
            okText={t('withdraw.button')}
            onConfirm={async () => {
              await withdrawCommand(device.id, row.id);
              await list.refresh();
            }}
          >
            {t('withdraw.button')}
          </ConfirmButton>
        ),
    },
  ];

  return (
    <section data-testid="command-tab">
      <ResourceTable<Command, typeof list.filters>
        testId="cmd"
        list={{ ...list, items }}
        rowKey="id"
        columns={columns}
        scrollX={1200}
        emptyText={t('empty')}
        filters={
          <>
            <Form.Item field="commandType" label={t('fields.commandType')}>
              <EnumSelect ns="command" group="type" values={commandTypes} allowClear placeholder={t('table:all')} style={{ width: 150 }} testId="cmd-filter-type" />
            </Form.Item>
            <Form.Item field="status" label={t('fields.status')}>
              <EnumSelect ns="command" group="status" values={commandStatuses} allowClear placeholder={t('table:all')} style={{ width: 150 }} testId="cmd-filter-status" />
            </Form.Item>
          </>
        }
        toolbar={
          <span className="ec-cmd-toolbar">
            <ConfirmButton
              testId="cmd-reboot"
              type="secondary"
              size="default"
              icon={<IconPoweroff />}
              title={t('reboot.confirm', { name: device.alias || device.name })}
              okText={t('reboot.button')}
              onConfirm={reboot}
            >
              {t('reboot.button')}
            </ConfirmButton>
            <Button type="primary" icon={<IconSend />} onClick={() => setSending(true)} data-testid="cmd-open">
              {t('send.button')}
            </Button>
          </span>
        }
      />
      {sending ? <CommandModal device={device} model={model} visible onClose={() => setSending(false)} onSent={() => void list.refresh()} /> : null}
      <Modal
        visible={viewing !== null}
        title={viewing?.title}
        footer={null}
        onCancel={() => setViewing(null)}
        style={{ width: 640, maxWidth: 'calc(100vw - 32px)' }}
      >
        {viewing ? <CodeBlock wrap text={prettyJson(viewing.text)} testId="cmd-json-view" /> : null}
      </Modal>
    </section>
  );
}
