/** Video channels: rules, the write-only password, probes, thumbnails and the live streams (server/contract/video.ts). */
import type { WebSocket } from 'ws';
import { ErrorCode } from '../../contract/errors.ts';
import type { DeleteResult } from '../../contract/common.ts';
import type {
  VideoCapabilities, VideoChannel, VideoChannelBody, VideoChannelListQuery, VideoChannelPage, VideoChannelUpdateBody, VideoProbeResult,
  VideoSyncBody, VideoSyncResult,
} from '../../contract/video.ts';
import { ONVIF_PORT_DEFAULT, RTSP_PORT_DEFAULT, VIDEO_THUMBNAIL_MAX_AGE_MS } from '../../contract/video.ts';
import { hasCredentials, isRtspAddress, rtspAddressOf, withCredentials } from '../../contract/video-address.ts';
import { AppError } from '../../lib/app-error.ts';
import { inScope, type DeviceScope } from '../../lib/device-scope.ts';
import { assertNoViolations, notFound, type Violation } from '../../lib/field-errors.ts';
import { newId } from '../../lib/ids.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import type { FfmpegTools } from './ffmpeg-tools.ts';
import { readOnvifDevice, type OnvifDevice } from './onvif-client.ts';
import { syncedBody, syncError } from './onvif-sync.ts';
import type { LiveStreams } from './live-streams.ts';
import type { ChannelRow, VideoRepository } from './video-repository.ts';

export interface VideoServiceDeps {
  channels: VideoRepository;
  box: SecretBox;
  tools: FfmpegTools;
  streams: LiveStreams;
  maxStreams: number;
  /** Per ONVIF request of a sync. */
  onvifTimeoutMs: number;
  organizationExists(id: string): boolean;
  deviceExists(id: string): boolean;
}

/** Synced channels probed at once after a sync: each ffprobe waits for a keyframe, a few seconds. */
const SYNC_PROBES_AT_ONCE = 4;

function publicOf(row: ChannelRow): VideoChannel {
  const { passwordSealed: _sealed, ...channel } = row;
  return channel;
}

export class VideoService {
  private readonly thumbnails = new Map<string, { at: number; jpeg: Promise<Buffer | VideoProbeResult> }>();
  private closed = false;

  constructor(private readonly deps: VideoServiceDeps) {}

  capabilities(): VideoCapabilities {
    return { ffmpeg: this.deps.tools.available, maxStreams: this.deps.maxStreams, activeStreams: this.deps.streams.active };
  }

  page(query: VideoChannelListQuery, scope: DeviceScope): VideoChannelPage {
    const { items, total } = this.deps.channels.page(query, scope?.organizationIds);
    return { items: items.map(publicOf), total };
  }

  get(id: string, scope: DeviceScope): VideoChannel {
    return publicOf(this.row(id, scope));
  }

  create(body: VideoChannelBody): VideoChannel {
    const now = Date.now();
    const row = this.draft(body, { id: newId(), passwordSealed: null, createdTime: now });
    this.deps.channels.save(row);
    return publicOf(row);
  }

  update(body: VideoChannelUpdateBody): VideoChannel {
    const current = this.row(body.id, null);
    const row = this.draft(body, current);
    this.saveChanged(row);
    return publicOf(row);
  }

  /**
   * ONVIF channel sync: one channel per media profile of the device, matched on re-sync by source
   * and profile token; those the device no longer lists are marked, not deleted. Answers once they
   * are stored; their probes run afterwards (the console says "channel synced, refresh later").
   */
  async sync(body: VideoSyncBody): Promise<VideoSyncResult> {
    const port = body.port ?? ONVIF_PORT_DEFAULT;
    const source = `${body.host}:${port}`;
    let device: OnvifDevice;
    try {
      device = await readOnvifDevice({ host: body.host, port, username: body.username, password: body.password, timeoutMs: this.deps.onvifTimeoutMs });
    } catch (err) {
      throw syncError(err, source);
    }
    const known = new Map(this.deps.channels.findBySource(source).map((row) => [row.syncProfileToken, row]));
    const result: VideoSyncResult = { created: 0, updated: 0, missing: 0 };
    const synced: string[] = [];
    device.profiles.forEach((profile, index) => {
      const existing = known.get(profile.token);
      known.delete(profile.token);
      const base = existing ?? { id: newId(), passwordSealed: null, createdTime: Date.now() };
      const row = this.draft(syncedBody({ sync: body, device, profile, index, existing }), base);
      this.saveChanged({ ...row, syncSource: source, syncProfileToken: profile.token, syncMissing: false });
      synced.push(row.id);
      result[existing ? 'updated' : 'created'] += 1;
    });
    for (const gone of known.values()) {
      if (!gone.syncMissing) this.deps.channels.save({ ...gone, syncMissing: true, updatedTime: Date.now() });
      result.missing += 1;
    }
    void this.probeAll(synced);
    return result;
  }

  delete(ids: readonly string[]): DeleteResult {
    for (const id of ids) {
      this.deps.streams.stop(id);
      this.thumbnails.delete(id);
    }
    return { deleted: this.deps.channels.delete(ids) };
  }

  async probe(id: string, scope: DeviceScope): Promise<VideoProbeResult> {
    const row = this.row(id, scope);
    const result = await this.deps.tools.probe(this.streamUrl(row));
    this.deps.channels.saveProbe(id, result, Date.now());
    return result;
  }

  /** A JPEG of the channel, grabbed again only when the last is VIDEO_THUMBNAIL_MAX_AGE_MS old. */
  async thumbnail(id: string, scope: DeviceScope): Promise<Buffer> {
    const row = this.row(id, scope);
    let cached = this.thumbnails.get(id);
    if (!cached || Date.now() - cached.at >= VIDEO_THUMBNAIL_MAX_AGE_MS) {
      cached = { at: Date.now(), jpeg: this.deps.tools.thumbnail(this.streamUrl(row)) };
      this.thumbnails.set(id, cached);
    }
    const result = await cached.jpeg;
    if (Buffer.isBuffer(result)) return result;
    // A failed grab is not kept: the next request tries again.
    if (this.thumbnails.get(id) === cached) this.thumbnails.delete(id);
    throw new AppError(ErrorCode.ITEM_NOT_FOUND, 'error.video.noFrame', { reason: result.reason ?? 'FAILED' });
  }

  /** The address with credentials for the channel's live stream; throws not found outside the scope. */
  streamUrlOf(id: string, scope: DeviceScope): string {
    return this.streamUrl(this.row(id, scope));
  }

  /** Adds a viewer to the channel's live stream (`url` from streamUrlOf). */
  watch(id: string, url: string, socket: WebSocket): void {
    this.deps.streams.watch(id, url, socket);
  }

  close(): void {
    this.closed = true;
    this.deps.streams.close();
    this.deps.tools.killAll();
  }

  /** Stores an edited channel; its old address or credentials no longer hold, so viewers reconnect to the new stream. */
  private saveChanged(row: ChannelRow): void {
    this.deps.channels.save(row);
    this.deps.streams.stop(row.id);
    this.thumbnails.delete(row.id);
  }

  /** Probes channels a few at a time; stops when the module closes (a probe's failure is its OFFLINE status). */
  private async probeAll(ids: readonly string[]): Promise<void> {
    for (let i = 0; i < ids.length && !this.closed; i += SYNC_PROBES_AT_ONCE) {
      await Promise.all(ids.slice(i, i + SYNC_PROBES_AT_ONCE).map((id) => this.probe(id, null).catch(() => undefined)));
    }
  }

  private row(id: string, scope: DeviceScope): ChannelRow {
    const row = this.deps.channels.findById(id);
    if (!row || !inScope(scope, row.organizationId)) throw notFound();
    return row;
  }

  private streamUrl(row: ChannelRow): string {
    const password = row.passwordSealed === null ? null : this.deps.box.open(row.passwordSealed);
    return withCredentials(row.rtspAddress, row.username, password);
  }

  /** The stored channel a body describes, checked against every rule (one 400 naming each broken field). */
  private draft(body: VideoChannelBody, base: Pick<ChannelRow, 'id' | 'passwordSealed' | 'createdTime'> & Partial<ChannelRow>): ChannelRow {
    const found: Violation[] = [];
    const other = body.manufacturer === 'other';
    const typed = other ? (body.rtspAddress?.trim() ?? '') : '';
    if (other && typed === '') found.push({ field: 'rtspAddress', key: 'error.video.addressRequired' });
    else if (other && !isRtspAddress(typed)) found.push({ field: 'rtspAddress', key: 'error.video.addressNotRtsp' });
    else if (other && hasCredentials(typed)) found.push({ field: 'rtspAddress', key: 'error.video.addressHasCredentials' });
    if (!other && !body.host) found.push({ field: 'host', key: 'error.video.hostRequired' });
    const organizationId = body.organizationId ?? null;
    if (organizationId !== null && !this.deps.organizationExists(organizationId)) found.push({ field: 'organizationId', key: 'error.video.organizationNotFound' });
    const deviceId = body.deviceId ?? null;
    if (deviceId !== null && !this.deps.deviceExists(deviceId)) found.push({ field: 'deviceId', key: 'error.video.deviceNotFound' });
    assertNoViolations(found);

    const parts = {
      manufacturer: body.manufacturer,
      host: other ? null : (body.host ?? null),
      rtspPort: body.rtspPort ?? RTSP_PORT_DEFAULT,
      channelNo: body.channelNo ?? 1,
      streamType: body.streamType ?? 'master',
    };
    const passwordSealed = body.password === undefined ? base.passwordSealed : body.password === '' ? null : this.deps.box.seal(body.password);
    const now = Date.now();
    return {
      id: base.id,
      name: body.name.trim(),
      status: base.status ?? 'UNKNOWN',
      offlineReason: base.offlineReason ?? null,
      codec: base.codec ?? null,
      width: base.width ?? null,
      height: base.height ?? null,
      probedTime: base.probedTime ?? null,
      ...parts,
      organizationId,
      deviceKind: body.deviceKind ?? 'CAMERA',
      deviceId,
      username: body.username || null,
      passwordSet: passwordSealed !== null,
      passwordSealed,
      rtspAddress: rtspAddressOf({ ...parts, typed })!,
      nationalCode: body.nationalCode ?? null,
      channelCode: body.channelCode ?? null,
      model: body.model ?? null,
      syncSource: base.syncSource ?? null,
      syncProfileToken: base.syncProfileToken ?? null,
      syncMissing: base.syncMissing ?? false,
      createdTime: base.createdTime,
      updatedTime: now,
    };
  }
}
