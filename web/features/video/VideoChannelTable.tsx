/**
 * The channel table shared by the video center and the device detail's video channel tab: status
 * with the probe's reason, the address without credentials, preview, probe, edit and delete (the
 * last two for `video:manage` only). Says so when the gateway has no ffmpeg.
 */
import { lazy, Suspense, useEffect, useMemo, useState, type JSX, type ReactNode } from 'react';
import Alert from '@arco-design/web-react/es/Alert';
import Button from '@arco-design/web-react/es/Button';
import Message from '@arco-design/web-react/es/Message';
import Tag from '@arco-design/web-react/es/Tag';
import Tooltip from '@arco-design/web-react/es/Tooltip';
import type { ColumnProps } from '@arco-design/web-react/es/Table';
import { useTranslation } from 'react-i18next';
import type { VideoCapabilities, VideoChannel } from '../../../server/contract/video.ts';
import { ConfirmButton } from '../../components/ConfirmButton.tsx';
import { EnumTag } from '../../components/EnumTag.tsx';
import { ResourceTable } from '../../components/ResourceTable.tsx';
import type { ListController } from '../../lib/use-list.ts';
import { usePermission } from '../../stores/permissions.ts';
import { VideoChannelDrawer } from './VideoChannelDrawer.tsx';
import { deleteChannels, probeChannel, videoCapabilities } from './videoApi.ts';

// The player and its MSE code load only when a preview opens.
const VideoPreviewModal = lazy(() => import('./VideoPreviewModal.tsx').then((m) => ({ default: m.VideoPreviewModal })));

const statusColors: Record<string, string> = { ONLINE: 'green', OFFLINE: 'red', UNKNOWN: 'gray' };

export interface VideoChannelTableProps<F extends object> {
  list: ListController<VideoChannel, F>;
  testId: string;
  filters?: ReactNode;
  /** The device new channels are bound to (the device tab). */
  deviceId?: string;
  /** More toolbar buttons for managers, after "new channel" (the video center's ONVIF sync). */
  manageActions?: ReactNode;
}

export function VideoChannelTable<F extends object>({ list, testId, filters, deviceId, manageActions }: VideoChannelTableProps<F>): JSX.Element {
  const { t } = useTranslation(['video', 'table']);
  const manage = usePermission('video:manage');
  const [editing, setEditing] = useState<VideoChannel | null | undefined>(undefined);
  const [previewing, setPreviewing] = useState<VideoChannel | null>(null);
  const [capabilities, setCapabilities] = useState<VideoCapabilities | null>(null);
  useEffect(() => {
    void videoCapabilities().then(setCapabilities, () => undefined);
  }, []);

  const probe = async (row: VideoChannel): Promise<void> => {
    const result = await probeChannel(row.id);
    if (result.status === 'ONLINE') Message.success(t('probe.online', { codec: result.codec, width: result.width, height: result.height }));
    else Message.warning(t('probe.offline', { reason: t(`reason.${result.reason ?? 'FAILED'}`) }));
    await list.refresh();
  };
  const remove = async (row: VideoChannel): Promise<void> => {
    await deleteChannels([row.id]);
    Message.success(t('deleted'));
    await list.refresh();
  };

  const columns = useMemo<ColumnProps<VideoChannel>[]>(
    () => [
      {
        title: t('fields.name'),
        dataIndex: 'name',
        render: (name: string, row) => (
          <>
            <strong>{name}</strong>
            {row.syncMissing ? (
              <Tooltip content={t('sync.missingHint', { source: row.syncSource })}>
                <Tag color="orange" size="small" style={{ marginLeft: 8 }} data-testid={`${testId}-missing-${row.id}`}>
                  {t('sync.missing')}
                </Tag>
              </Tooltip>
            ) : null}
          </>
        ),
      },
      {
        title: t('fields.status'),
        dataIndex: 'status',
        width: 120,
        render: (v: string, row) => (
          <Tooltip content={row.offlineReason ? t(`reason.${row.offlineReason}`) : row.codec ? `${row.codec} ${row.width ?? ''}×${row.height ?? ''}` : undefined}>
            <span>
              <EnumTag ns="video" group="status" value={v} colors={statusColors} testId={`${testId}-status-${row.id}`} />
            </span>
          </Tooltip>
        ),
      },
      { title: t('fields.manufacturer'), dataIndex: 'manufacturer', width: 120, render: (v: string) => <EnumTag ns="video" group="manufacturer" value={v} /> },
      { title: t('fields.streamType'), dataIndex: 'streamType', width: 100, render: (v: string) => <EnumTag ns="video" group="streamType" value={v} /> },
      { title: t('fields.rtspAddress'), dataIndex: 'rtspAddress', ellipsis: true, render: (v: string) => <code>{v}</code> },
      {
        title: t('table:actions'),
        key: 'actions',
        width: 240,
        fixed: 'right',
        render: (_: unknown, row) => (
          <span style={{ display: 'inline-flex', gap: 4 }}>
            <Button type="text" size="small" disabled={capabilities?.ffmpeg === false} onClick={() => setPreviewing(row)} data-testid={`${testId}-preview-${row.id}`}>
              {t('preview')}
            </Button>
            <Button type="text" size="small" onClick={() => void probe(row)} data-testid={`${testId}-probe-${row.id}`}>
              {t('probe.action')}
            </Button>
            {manage ? (
              <>
                <Button type="text" size="small" onClick={() => setEditing(row)} data-testid={`${testId}-edit-${row.id}`}>
                  {t('table:edit')}
                </Button>
                <ConfirmButton title={t('deleteConfirm', { name: row.name })} onConfirm={() => remove(row)} testId={`${testId}-delete-${row.id}`}>
                  {t('table:delete')}
                </ConfirmButton>
              </>
            ) : null}
          </span>
        ),
      },
    ],
    // oxlint-disable-next-line react-hooks/exhaustive-deps -- probe and remove only call list.refresh, which follows the list's query.
    [t, list.refresh, manage, capabilities, testId],
  );

  return (
    <>
      {capabilities?.ffmpeg === false ? <Alert type="warning" content={t('noFfmpeg')} style={{ marginBottom: 12 }} data-testid={`${testId}-no-ffmpeg`} /> : null}
      <ResourceTable<VideoChannel, F>
        testId={testId}
        list={list}
        rowKey="id"
        columns={columns}
        scrollX={1000}
        emptyText={t('empty')}
        onBulkDelete={manage ? (ids) => deleteChannels(ids) : undefined}
        filters={filters}
        toolbar={
          manage ? (
            <>
              <Button type="primary" onClick={() => setEditing(null)} data-testid={`${testId}-create`}>
                {t('create')}
              </Button>
              {manageActions}
            </>
          ) : undefined
        }
      />
      {manage ? <VideoChannelDrawer editing={editing} deviceId={deviceId} onClose={() => setEditing(undefined)} onSaved={() => void list.refresh()} /> : null}
      {previewing ? (
        <Suspense fallback={null}>
          <VideoPreviewModal channel={previewing} onClose={() => setPreviewing(null)} />
        </Suspense>
      ) : null}
    </>
  );
}
