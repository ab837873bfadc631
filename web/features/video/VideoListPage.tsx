/**
 * Video center → Video: every channel the caller may see, with name and status filters; add/edit
 * drawer with the maker's address rule, probe, live preview, and ONVIF channel sync (managers).
 */
import { useState, type JSX } from 'react';
import Button from '@arco-design/web-react/es/Button';
import Card from '@arco-design/web-react/es/Card';
import Form from '@arco-design/web-react/es/Form';
import Input from '@arco-design/web-react/es/Input';
import { useTranslation } from 'react-i18next';
import { videoRoutes, videoStatuses } from '../../../server/contract/video.ts';
import { EnumSelect } from '../../components/EnumSelect.tsx';
import { useList } from '../../lib/use-list.ts';
import { VideoChannelTable } from './VideoChannelTable.tsx';
import { VideoSyncModal } from './VideoSyncModal.tsx';

/** The synced channels' probes run after the sync answers; one refresh a little later shows most of their statuses. */
const REFRESH_AFTER_SYNC_MS = 10_000;

function VideoFilters(): JSX.Element {
  const { t } = useTranslation('video');
  return (
    <>
      <Form.Item field="name" label={t('fields.name')}>
        <Input allowClear placeholder={t('filter.namePlaceholder')} data-testid="video-filter-name" style={{ width: 200 }} />
      </Form.Item>
      <Form.Item field="status" label={t('fields.status')}>
        <EnumSelect ns="video" group="status" values={videoStatuses} allowClear placeholder={t('filter.statusPlaceholder')} testId="video-filter-status" style={{ width: 140 }} />
      </Form.Item>
    </>
  );
}

export function VideoListPage(): JSX.Element {
  const { t } = useTranslation('video');
  const list = useList(videoRoutes.list, { urlFilters: { name: 'string', status: 'string' } });
  const [syncing, setSyncing] = useState(false);
  const synced = (): void => {
    void list.refresh();
    setTimeout(() => void list.refresh(), REFRESH_AFTER_SYNC_MS);
  };
  const syncButton = (
    <Button onClick={() => setSyncing(true)} data-testid="video-sync">
      {t('sync.action')}
    </Button>
  );
  return (
    <Card title={t('title')} bordered={false} data-testid="video-page">
      <VideoChannelTable list={list} testId="video" filters={<VideoFilters />} manageActions={syncButton} />
      <VideoSyncModal visible={syncing} onClose={() => setSyncing(false)} onSynced={synced} />
    </Card>
  );
}
