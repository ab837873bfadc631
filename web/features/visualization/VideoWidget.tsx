/**
 * A video widget: one channel's live stream through the video feature's MSE player, loaded only
 * when a widget plays (the designer and pages without video never load it). The designer shows the
 * channel's name, not the stream. Video is not shared: a share link carries no credential for the
 * live stream, so there the widget says so instead of opening one (docs/SECURITY.md).
 */
import { lazy, Suspense, useEffect, useState, type JSX } from 'react';
import { useTranslation } from 'react-i18next';
import type { VideoChannel } from '../../../server/contract/video.ts';
import type { Widget } from '../../../server/contract/visualization.ts';
import { getChannel } from '../video/videoApi.ts';
import type { ValueSource } from './useBindingValues.ts';

const VideoPlayer = lazy(async () => ({ default: (await import('../video/VideoPreviewModal.tsx')).VideoPlayer }));

function useChannel(id: string | undefined): VideoChannel | null | 'missing' {
  const [channel, setChannel] = useState<VideoChannel | null | 'missing'>(null);
  useEffect(() => {
    setChannel(null);
    if (!id) return;
    getChannel(id).then(setChannel, () => setChannel('missing'));
  }, [id]);
  return channel;
}

export function VideoWidget({ widget, source }: { widget: Widget; source: ValueSource | null }): JSX.Element {
  const { t } = useTranslation('visualization');
  const channelId = typeof widget.props.channelId === 'string' && widget.props.channelId ? widget.props.channelId : undefined;
  // Through a share link no channel is asked for: the guest has no right to it.
  const channel = useChannel(source?.kind === 'share' ? undefined : channelId);
  if (source?.kind === 'share') return <span className="ec-vis__muted" data-testid={`vis-video-unshared-${widget.id}`}>{t('video.notShared')}</span>;
  if (!channelId) return <span className="ec-vis__muted">{t('video.none')}</span>;
  if (channel === 'missing') return <span className="ec-vis__muted">{t('missing')}</span>;
  if (!channel) return <span className="ec-vis__muted">…</span>;
  if (!source) return <span className="ec-vis__muted">{t('video.preview', { name: channel.name })}</span>;
  return (
    <Suspense fallback={<span className="ec-vis__muted">…</span>}>
      <div className="ec-vis__video">
        <VideoPlayer channel={channel} testId={`vis-video-${widget.id}`} />
      </div>
    </Suspense>
  );
}
