/** Video channel calls over the contract (server/contract/video.ts). Saves are silent: the drawer shows failures on their fields. */
import type { DeleteResult } from '../../../server/contract/common.ts';
import {
  videoLivePath,
  videoRoutes,
  type VideoCapabilities,
  type VideoChannel,
  type VideoChannelBody,
  type VideoChannelUpdateBody,
  type VideoProbeResult,
  type VideoSyncBody,
  type VideoSyncResult,
} from '../../../server/contract/video.ts';
import { api } from '../../lib/api-client.ts';
import { getSession } from '../../stores/session.ts';

export function getChannel(id: string): Promise<VideoChannel> {
  return api(videoRoutes.get, { params: { id } });
}

export function createChannel(body: VideoChannelBody): Promise<VideoChannel> {
  return api(videoRoutes.create, { body, silent: true });
}

export function updateChannel(body: VideoChannelUpdateBody): Promise<VideoChannel> {
  return api(videoRoutes.update, { body, silent: true });
}

export function deleteChannels(ids: string[]): Promise<DeleteResult> {
  return api(videoRoutes.delete, { body: { ids } });
}

/** A recorder answers one SOAP call per profile, each within the server's 5 s: more than the default 10 s in all. */
const SYNC_TIMEOUT_MS = 60_000;

/**
 * Silent: the sync dialog shows the failure (wrong password, clock skew, timeout, not ONVIF) itself.
 * The route answers 202, which the client's response typing (200 only) does not follow.
 */
export function syncChannels(body: VideoSyncBody): Promise<VideoSyncResult> {
  return api(videoRoutes.sync, { body, silent: true, timeoutMs: SYNC_TIMEOUT_MS }) as Promise<VideoSyncResult>;
}

export function probeChannel(id: string): Promise<VideoProbeResult> {
  return api(videoRoutes.probe, { params: { id } });
}

export function videoCapabilities(): Promise<VideoCapabilities> {
  return api(videoRoutes.capabilities);
}

/** The live websocket's URL for the signed-in user (the token travels in the query, as /api/ws allows). */
export function liveUrl(id: string): string {
  const scheme = window.location.protocol === 'https:' ? 'wss:' : 'ws:';
  const token = getSession().token ?? '';
  return `${scheme}//${window.location.host}${videoLivePath(id)}?token=${encodeURIComponent(token)}`;
}
