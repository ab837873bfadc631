/**
 * A channel's live preview: the gateway's fMP4 websocket played by our MSE player (mse-player.ts,
 * loaded with this modal only). States the player cannot play in (stream limit, no ffmpeg, ended)
 * are said in words, with a retry.
 */
import { useEffect, useRef, useState, type JSX } from 'react';
import Button from '@arco-design/web-react/es/Button';
import Modal from '@arco-design/web-react/es/Modal';
import { useTranslation } from 'react-i18next';
import type { VideoChannel } from '../../../server/contract/video.ts';
import { MsePlayer, type PlayerState } from './mse-player.ts';
import { liveUrl } from './videoApi.ts';
import './video.css';

/** The player in a box, for the modal and the device tab. */
export function VideoPlayer({ channel, testId }: { channel: VideoChannel; testId: string }): JSX.Element {
  const { t } = useTranslation('video');
  const video = useRef<HTMLVideoElement>(null);
  const [state, setState] = useState<PlayerState>('connecting');
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    const player = new MsePlayer(video.current!, setState);
    player.start(liveUrl(channel.id));
    return () => player.stop();
  }, [channel.id, attempt]);
  return (
    <div className="video-player" data-testid={testId} data-state={state}>
      <video ref={video} muted autoPlay playsInline style={{ width: '100%', background: '#000', aspectRatio: '16 / 9' }} data-testid={`${testId}-video`} />
      {state !== 'playing' ? (
        <div className="video-player-state" data-testid={`${testId}-state`}>
          {t(`player.${state}`)}
          {state !== 'connecting' ? (
            <Button size="mini" type="text" onClick={() => setAttempt((n) => n + 1)} data-testid={`${testId}-retry`}>
              {t('player.retry')}
            </Button>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}

export function VideoPreviewModal({ channel, onClose }: { channel: VideoChannel | null; onClose: () => void }): JSX.Element {
  return (
    <Modal visible={channel !== null} title={channel?.name} footer={null} onCancel={onClose} unmountOnExit style={{ width: 720 }} data-testid="video-preview">
      {channel ? <VideoPlayer channel={channel} testId="video-preview-player" /> : null}
    </Modal>
  );
}
