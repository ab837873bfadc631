/**
 * Soft gateway → Node-RED: the instances with their status and memory; create/edit drawer, start,
 * stop, restart, open the editor (a new tab with a single-use ticket), delete with confirmation.
 * While any instance is starting the list refreshes itself until it settles.
 */
import { useEffect, useMemo, useState, type JSX } from 'react';
import Alert from '@arco-design/web-react/es/Alert';
import Button from '@arco-design/web-react/es/Button';
import Card from '@arco-design/web-react/es/Card';
import Message from '@arco-design/web-react/es/Message';
import type { ColumnProps } from '@arco-design/web-react/es/Table';
import IconPlus from '@arco-design/web-react/icon/react-icon/IconPlus';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { consolePath, consolePaths } from '../../../server/contract/console-paths.ts';
import { nodeRedRoutes, type NodeRedInstance } from '../../../server/contract/node-red.ts';
import { ConfirmButton } from '../../components/ConfirmButton.tsx';
import { EnumTag } from '../../components/EnumTag.tsx';
import { ResourceTable } from '../../components/ResourceTable.tsx';
import { formatDateTime } from '../../lib/date-format.ts';
import { useList } from '../../lib/use-list.ts';
import { InstanceActions } from './InstanceActions.tsx';
import { NodeRedDrawer } from './NodeRedDrawer.tsx';
import { cpuText, memoryText, nodeRedStatusColors, STATUS_POLL_MS } from './instanceStatus.ts';
import { deleteInstances, serviceState } from './nodeRedApi.ts';

export function NodeRedListPage(): JSX.Element {
  const { t } = useTranslation(['nodeRed', 'table']);
  const list = useList(nodeRedRoutes.list);
  // undefined: closed; null: creating; an instance: editing it.
  const [editing, setEditing] = useState<NodeRedInstance | null | undefined>(undefined);
  // null until known; false: no node-red package here, so nothing can be created or started.
  const [installed, setInstalled] = useState<boolean | null>(null);
  useEffect(() => {
    serviceState().then(
      (s) => setInstalled(s.installed),
      () => undefined,
    );
  }, []);
  const settling = list.items.some((i) => i.status === 'STARTING' || i.status === 'CRASHED');

  useEffect(() => {
    if (!settling) return undefined;
    const timer = setInterval(() => void list.refresh(), STATUS_POLL_MS);
    return () => clearInterval(timer);
    // oxlint-disable-next-line react-hooks/exhaustive-deps -- list.refresh follows the list's query; only settling starts and stops the poll.
  }, [settling]);

  const remove = async (row: NodeRedInstance): Promise<void> => {
    await deleteInstances([row.id]);
    Message.success(t('deleted'));
    await list.refresh();
  };

  const columns = useMemo<ColumnProps<NodeRedInstance>[]>(
    () => [
      {
        title: t('name'),
        dataIndex: 'name',
        render: (name: string, row) => (
          <Link href={consolePath(consolePaths.nodeRedDetail, { id: row.id })} data-testid={`node-red-detail-${row.id}`}>
            <strong>{name}</strong>
          </Link>
        ),
      },
      { title: t('port'), dataIndex: 'port', width: 90 },
      {
        title: t('statusLabel'),
        dataIndex: 'status',
        width: 110,
        render: (v: string, row) => <EnumTag ns="nodeRed" group="status" value={v} colors={nodeRedStatusColors} testId={`node-red-status-${row.id}`} />,
      },
      { title: t('memory'), dataIndex: 'rssBytes', width: 100, align: 'right', render: (v: number | undefined) => memoryText(v) },
      { title: t('cpu'), dataIndex: 'cpuPercent', width: 90, align: 'right', render: (v: number | undefined) => cpuText(v) },
      { title: t('description'), dataIndex: 'description', ellipsis: true, render: (v: string) => v || '—' },
      { title: t('createdTime'), dataIndex: 'createdTime', width: 180, render: (v: number) => formatDateTime(v) },
      {
        title: t('table:actions'),
        key: 'actions',
        width: 330,
        fixed: 'right',
        render: (_: unknown, row) => (
          <span style={{ display: 'inline-flex', gap: 4 }}>
            <InstanceActions instance={row} onChanged={() => void list.refresh()} />
            <Button type="text" size="small" onClick={() => setEditing(row)} data-testid={`node-red-edit-${row.id}`}>
              {t('table:edit')}
            </Button>
            <ConfirmButton title={t('deleteConfirm', { name: row.name })} onConfirm={() => remove(row)} testId={`node-red-delete-${row.id}`}>
              {t('table:delete')}
            </ConfirmButton>
          </span>
        ),
      },
    ],
    // oxlint-disable-next-line react-hooks/exhaustive-deps -- remove only calls list.refresh, which follows the list's query.
    [t, list.refresh],
  );

  return (
    <Card title={t('title')} bordered={false} data-testid="node-red-page">
      {installed === false ? (
        <Alert type="warning" content={t('notInstalled')} style={{ marginBottom: 16 }} data-testid="node-red-not-installed" />
      ) : (
        <Alert type="info" content={t('intro')} style={{ marginBottom: 16 }} />
      )}
      <ResourceTable<NodeRedInstance, typeof list.filters>
        testId="node-red"
        list={list}
        rowKey="id"
        columns={columns}
        scrollX={1200}
        emptyText={t('empty')}
        onBulkDelete={(ids) => deleteInstances(ids)}
        toolbar={
          <Button type="primary" icon={<IconPlus />} disabled={installed === false} onClick={() => setEditing(null)} data-testid="node-red-create">
            {t('create')}
          </Button>
        }
      />
      <NodeRedDrawer editing={editing} onClose={() => setEditing(undefined)} onSaved={() => void list.refresh()} />
    </Card>
  );
}
