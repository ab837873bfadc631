/**
 * The RTSP address rules of the camera makers (server/contract/video.ts): pure, so the console's
 * drawer previews the very address the gateway opens.
 */
import type { VideoManufacturer, VideoStreamType } from './video.ts';

const streamIndex: Record<VideoStreamType, number> = { master: 0, sub: 1, third: 2 };

/** The path (and query) of a channel's stream by its maker's rule; null for `other`. */
export function rtspPathOf(manufacturer: VideoManufacturer, channelNo: number, streamType: VideoStreamType): string | null {
  const s = streamIndex[streamType];
  switch (manufacturer) {
    case 'hikvision':
      return `/Streaming/Channels/${channelNo}0${s + 1}`;
    case 'dahua':
      return `/cam/realmonitor?channel=${channelNo}&subtype=${s}`;
    case 'uniview':
      return `/unicast/c${channelNo}/s${s}/live`;
    default:
      return null;
  }
}

export interface RtspParts {
  manufacturer: VideoManufacturer;
  host: string | null;
  rtspPort: number;
  channelNo: number;
  streamType: VideoStreamType;
  /** Only for `other`. */
  typed: string | null;
}

/** The address without credentials, as answers show it; null when the parts do not make one. */
export function rtspAddressOf(parts: RtspParts): string | null {
  const path = rtspPathOf(parts.manufacturer, parts.channelNo, parts.streamType);
  if (path === null) return parts.typed;
  if (!parts.host) return null;
  return `rtsp://${parts.host}:${parts.rtspPort}${path}`;
}

/** Whether `address` is an rtsp:// URL with a host (credentials are checked apart). */
export function isRtspAddress(address: string): boolean {
  try {
    const url = new URL(address);
    return url.protocol === 'rtsp:' && url.hostname !== '';
  } catch {
    return false;
  }
}

/** Whether the address carries a user name or password of its own. */
export function hasCredentials(address: string): boolean {
  try {
    const url = new URL(address);
    return url.username !== '' || url.password !== '';
  } catch {
    return false;
  }
}

/**
 * `address` with the credentials put in, percent-encoded: camera passwords hold `#`, `@` and `:`,
 * which would otherwise end the password, the user info or the host.
 */
export function withCredentials(address: string, username: string | null, password: string | null): string {
  if (!username) return address;
  const userInfo = encodeURIComponent(username) + (password ? `:${encodeURIComponent(password)}` : '');
  return address.replace(/^rtsp:\/\//i, `rtsp://${userInfo}@`);
}
