/**
 * An instance's snapshots, newest first: taken by every deploy through the editor, before every
 * rollback, or by hand with a note. Rolling back deploys one in full (after snapshotting the
 * current flows), so a mistaken rollback is itself undone by rolling back to that snapshot.
 */
import { useMemo, useState, type JSX } from 'react';
import Button from '@arco-design/web-react/es/Button';
import Card from '@arco-design/web-react/es/Card';
import Input from '@arco-design/web-react/es/Input';
import Message from '@arco-design/web-react/es/Message';
import type { ColumnProps } from '@arco-design/web-react/es/Table';
import { useTranslation } from 'react-i18next';
import { NOTE_MAX, nodeRedRoutes, type NodeRedSnapshot } from '../../../server/contract/node-red.ts';
import { ConfirmButton } from '../../components/ConfirmButton.tsx';
import { EnumTag } from '../../components/EnumTag.tsx';
import { ResourceTable } from '../../components/ResourceTable.tsx';
import { formatDateTime } from '../../lib/date-format.ts';
import { useList } from '../../lib/use-list.ts';
import { CURRENT, FlowPreviewDrawer } from './FlowPreviewDrawer.tsx';
import { rollback, takeSnapshot } from './nodeRedApi.ts';

const sourceColors: Record<string, string> = { DEPLOY: 'arcoblue', MANUAL: 'green', ROLLBACK: 'orange' };

export function SnapshotCard({ instanceId, running }: { instanceId: string; running: boolean }): JSX.Element {
  const { t } = useTranslation(['nodeRed', 'table']);
  const list = useList(nodeRedRoutes.snapshots, { params: { id: instanceId }, syncUrl: false });
  const [note, setNote] = useState('');
  const [taking, setTaking] = useState(false);
  const [previewed, setPreviewed] = useState<string | null>(null);

  const take = async (): Promise<void> => {
    setTaking(true);
    try {
      await takeSnapshot(instanceId, note.trim());
      setNote('');
      Message.success(t('snapshotTaken'));
      await list.refresh();
    } finally {
      setTaking(false);
    }
  };

  const columns = useMemo<ColumnProps<NodeRedSnapshot>[]>(
    () => [
      { title: t('snapshotTime'), dataIndex: 'createdTime', width: 180, render: (v: number) => formatDateTime(v) },
      {
        title: t('snapshotSource'),
        dataIndex: 'source',
        width: 140,
        render: (v: string, row) => <EnumTag ns="nodeRed" group="source" value={v} colors={sourceColors} testId={`node-red-snapshot-source-${row.id}`} />,
      },
      { title: t('nodeCount'), dataIndex: 'nodeCount', width: 90, align: 'right' },
      { title: t('snapshotNote'), dataIndex: 'note', ellipsis: true, render: (v: string) => v || '—' },
      {
        title: t('table:actions'),
        key: 'actions',
        width: 180,
        fixed: 'right',
        render: (_: unknown, row) => (
          <span style={{ display: 'inline-flex', gap: 4 }}>
            <Button type="text" size="small" onClick={() => setPreviewed(row.id)} data-testid={`node-red-preview-${row.id}`}>
              {t('preview.open')}
            </Button>
            <ConfirmButton
              title={t('rollbackConfirm')}
              disabled={!running}
              onConfirm={async () => {
                await rollback(instanceId, row.id);
                Message.success(t('rolledBack'));
                await list.refresh();
              }}
              testId={`node-red-rollback-${row.id}`}
            >
              {t('rollback')}
            </ConfirmButton>
          </span>
        ),
      },
    ],
    // oxlint-disable-next-line react-hooks/exhaustive-deps -- list.refresh follows the list's query.
    [t, instanceId, running, list.refresh],
  );

  return (
    <Card title={t('snapshots')} bordered={false} data-testid="node-red-snapshots">
      <ResourceTable<NodeRedSnapshot, typeof list.filters>
        testId="node-red-snapshot"
        list={list}
        rowKey="id"
        columns={columns}
        emptyText={t('snapshotsEmpty')}
        toolbar={
          <span style={{ display: 'inline-flex', gap: 8 }}>
            <Input
              value={note}
              onChange={setNote}
              maxLength={NOTE_MAX}
              placeholder={t('snapshotNotePlaceholder')}
              aria-label={t('snapshotNote')}
              style={{ width: 240 }}
              data-testid="node-red-snapshot-note"
            />
            <Button onClick={() => setPreviewed(CURRENT)} data-testid="node-red-preview-current">
              {t('preview.current')}
            </Button>
            <Button type="primary" loading={taking} onClick={() => void take().catch(() => undefined)} data-testid="node-red-snapshot-take">
              {t('takeSnapshot')}
            </Button>
          </span>
        }
      />
      <FlowPreviewDrawer instanceId={instanceId} shown={previewed} snapshots={list.items} onClose={() => setPreviewed(null)} />
    </Card>
  );
}
