/** SQL for `video_channel`; the sealed password never leaves this module's service. */
import type { VideoChannel, VideoChannelListQuery, VideoProbeResult } from '../../contract/video.ts';
import type { Db } from '../../db/sqlite.ts';
import { containsPattern, pageWindow, Where } from '../../db/list-query.ts';

interface ChannelRecord {
  id: string;
  name: string;
  manufacturer: VideoChannel['manufacturer'];
  organization_id: string | null;
  device_kind: VideoChannel['deviceKind'];
  device_id: string | null;
  channel_no: number;
  host: string | null;
  rtsp_port: number;
  username: string | null;
  password_sealed: string | null;
  stream_type: VideoChannel['streamType'];
  rtsp_address: string;
  national_code: string | null;
  channel_code: string | null;
  model: string | null;
  status: VideoChannel['status'];
  offline_reason: VideoChannel['offlineReason'];
  codec: string | null;
  width: number | null;
  height: number | null;
  probed_time: number | null;
  sync_source: string | null;
  sync_profile: string | null;
  sync_missing: number;
  create_time: number;
  update_time: number;
}

/** A channel as stored: the answer's fields plus the sealed password. */
export interface ChannelRow extends VideoChannel {
  passwordSealed: string | null;
}

function toRow(r: ChannelRecord): ChannelRow {
  return {
    id: r.id,
    name: r.name,
    status: r.status,
    offlineReason: r.offline_reason,
    codec: r.codec,
    width: r.width,
    height: r.height,
    probedTime: r.probed_time,
    manufacturer: r.manufacturer,
    organizationId: r.organization_id,
    deviceKind: r.device_kind,
    deviceId: r.device_id,
    channelNo: r.channel_no,
    host: r.host,
    rtspPort: r.rtsp_port,
    username: r.username,
    passwordSet: r.password_sealed !== null,
    passwordSealed: r.password_sealed,
    streamType: r.stream_type,
    rtspAddress: r.rtsp_address,
    nationalCode: r.national_code,
    channelCode: r.channel_code,
    model: r.model,
    syncSource: r.sync_source,
    syncProfileToken: r.sync_profile,
    syncMissing: r.sync_missing === 1,
    createdTime: r.create_time,
    updatedTime: r.update_time,
  };
}

export class VideoRepository {
  constructor(private readonly db: Db) {}

  /** `organizationIds`: only channels of these (a scoped caller); undefined: every channel. */
  page(query: VideoChannelListQuery, organizationIds: readonly string[] | undefined): { items: ChannelRow[]; total: number } {
    const where = new Where();
    if (query.name) where.add("name LIKE ? ESCAPE '\\'", containsPattern(query.name));
    if (query.status) where.add('status = ?', query.status);
    if (query.organizationId) where.add('organization_id = ?', query.organizationId);
    if (query.deviceId) where.add('device_id = ?', query.deviceId);
    if (organizationIds) where.add(`organization_id IN (${organizationIds.map(() => '?').join(',') || 'NULL'})`, ...organizationIds);
    const { limit, offset } = pageWindow(query.page, query.pageSize);
    const rows = this.db
      .prepare(`SELECT * FROM video_channel ${where.sql} ORDER BY create_time DESC, rowid DESC LIMIT ? OFFSET ?`)
      .all(...where.params, limit, offset) as unknown as ChannelRecord[];
    const { total } = this.db.prepare(`SELECT COUNT(*) AS total FROM video_channel ${where.sql}`).get(...where.params) as { total: number };
    return { items: rows.map(toRow), total };
  }

  findById(id: string): ChannelRow | undefined {
    const r = this.db.prepare('SELECT * FROM video_channel WHERE id = ?').get(id) as ChannelRecord | undefined;
    return r && toRow(r);
  }

  /** Inserts or replaces the whole channel (probe results kept as given). */
  save(c: ChannelRow): void {
    this.db
      .prepare(
        `INSERT OR REPLACE INTO video_channel (id, name, manufacturer, organization_id, device_kind, device_id, channel_no, host, rtsp_port,
           username, password_sealed, stream_type, rtsp_address, national_code, channel_code, model, status, offline_reason, codec, width,
           height, probed_time, sync_source, sync_profile, sync_missing, create_time, update_time)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        c.id, c.name, c.manufacturer, c.organizationId, c.deviceKind, c.deviceId, c.channelNo, c.host, c.rtspPort,
        c.username, c.passwordSealed, c.streamType, c.rtspAddress, c.nationalCode, c.channelCode, c.model, c.status, c.offlineReason, c.codec, c.width,
        c.height, c.probedTime, c.syncSource, c.syncProfileToken, c.syncMissing ? 1 : 0, c.createdTime, c.updatedTime,
      );
  }

  /** The channels synced from one ONVIF device (`host:port`). */
  findBySource(source: string): ChannelRow[] {
    return (this.db.prepare('SELECT * FROM video_channel WHERE sync_source = ? ORDER BY create_time').all(source) as unknown as ChannelRecord[]).map(toRow);
  }

  saveProbe(id: string, result: VideoProbeResult, at: number): void {
    this.db
      .prepare('UPDATE video_channel SET status = ?, offline_reason = ?, codec = ?, width = ?, height = ?, probed_time = ? WHERE id = ?')
      .run(result.status, result.reason ?? null, result.codec ?? null, result.width ?? null, result.height ?? null, at, id);
  }

  delete(ids: readonly string[]): number {
    const placeholders = ids.map(() => '?').join(',');
    return Number(this.db.prepare(`DELETE FROM video_channel WHERE id IN (${placeholders})`).run(...ids).changes);
  }
}
