/**
 * Video channels (`/api/yt/video/channel`; console page /video-center/video and the device detail's
 * video channel tab). Shapes fixed in shared/DESIGN.md §4, "Video and visualization".
 *
 * - The RTSP address is built from manufacturer, host, port, channel number and stream type
 *   (server/contract/video-address.ts) unless the manufacturer is `other`, where it is typed
 *   (`rtsp://` only, `error.video.addressNotRtsp`; no user name or password inside it,
 *   `error.video.addressHasCredentials`: credentials travel in their own fields). Answers carry the
 *   address without credentials; the gateway adds them, percent-encoded, when it opens the stream.
 * - The password is write-only: stored encrypted with the per-install key, never answered
 *   (`passwordSet` says whether one is stored). A PUT without `password` keeps the stored one, an
 *   empty one removes it.
 * - Scope: like devices, a caller limited to some organizations sees only their channels (404 for
 *   another); a bound device must exist (`error.video.deviceNotFound`).
 * - A probe (ffprobe) sets the status: ONLINE with codec and size, OFFLINE with a reason. It never
 *   answers 5xx for a camera's fault; without ffmpeg it is OFFLINE with `FFMPEG_MISSING`.
 * - ONVIF sync (`POST /api/yt/video/sync`): reads the device's clock (GetSystemDateAndTime) and signs
 *   WS-Security UsernameToken digests with it (a camera hours off still syncs), falls back to HTTP
 *   digest, then makes one channel per media profile (`other`, the profile's stream URI without
 *   credentials, the sync's user name and password). A re-sync updates the channels of the same
 *   device (`syncSource` + `syncProfileToken`) and sets `syncMissing` on those whose profile is gone.
 *   Answers 202 with the counts once the channels are stored; their probes run afterwards ("channel
 *   synced, refresh later"). Failures are 400s: error.video.onvifAuthFailed, onvifClockSkew,
 *   onvifTimeout, onvifUnreachable, onvifNotOnvif.
 * - Live: websocket VIDEO_LIVE_PATH, authorized like /api/ws (`token` query or bearer header);
 *   binary messages of fragmented MP4: first the init segment (ftyp+moov), then moof+mdat fragments,
 *   the first one starting at a keyframe. One ffmpeg per channel however many viewers, stopped
 *   VIDEO_IDLE_STOP_MS after the last leaves; beyond `--video-max-streams` channels at once the
 *   socket closes with VIDEO_CLOSE_LIMIT. Close codes are listed below.
 */
import Type, { type Static } from 'typebox';
import { defineRoutes } from './route.ts';
import { ErrorBodySchema } from './errors.ts';
import { DeleteResultSchema, EpochMs, IdParamsSchema, IdsBodySchema, Nullable, PageOf, PageQuerySchema, ResourceIdSchema, UpdateBodyOf } from './common.ts';
import { HOST_PATTERN, IPV4_PATTERN, VISIBLE_TEXT_PATTERN } from './validation.ts';

/** videoManufacturer: whose address rule builds the RTSP address (`other`: typed by hand). */
export const videoManufacturers = ['hikvision', 'dahua', 'uniview', 'other'] as const;
export const VideoManufacturerSchema = Type.Enum(videoManufacturers);
export type VideoManufacturer = (typeof videoManufacturers)[number];

/** videoStreamType: the camera's main, sub (the spec's "sensor") or third stream. */
export const videoStreamTypes = ['master', 'sub', 'third'] as const;
export const VideoStreamTypeSchema = Type.Enum(videoStreamTypes);
export type VideoStreamType = (typeof videoStreamTypes)[number];

/** The spec's "device selection type": a camera of its own, or one channel of a recorder. */
export const videoDeviceKinds = ['CAMERA', 'NVR'] as const;
export const VideoDeviceKindSchema = Type.Enum(videoDeviceKinds);
export type VideoDeviceKind = (typeof videoDeviceKinds)[number];

/** UNKNOWN until the first probe. */
export const videoStatuses = ['UNKNOWN', 'ONLINE', 'OFFLINE'] as const;
export const VideoStatusSchema = Type.Enum(videoStatuses);
export type VideoStatus = (typeof videoStatuses)[number];

/** Why a probe found the channel OFFLINE. */
export const videoOfflineReasons = ['AUTH_FAILED', 'UNREACHABLE', 'TIMEOUT', 'NOT_FOUND', 'NO_VIDEO', 'FFMPEG_MISSING', 'FAILED'] as const;
export const VideoOfflineReasonSchema = Type.Enum(videoOfflineReasons);
export type VideoOfflineReason = (typeof videoOfflineReasons)[number];

export const RTSP_PORT_DEFAULT = 554;
export const VIDEO_CHANNEL_NO_MAX = 512;
export const VIDEO_TEXT_MAX = 64;
export const VIDEO_ADDRESS_MAX = 512;
/** National-standard (GB/T 28181) codes are 20 digits. */
export const NATIONAL_CODE_PATTERN = '^\\d{20}$';

/** The video IP rule (spec §5): an IPv4 address or a host name. */
export const VideoHostSchema = Type.String({ maxLength: 255, pattern: `(${IPV4_PATTERN})|(${HOST_PATTERN})` });
const Text = Type.String({ maxLength: VIDEO_TEXT_MAX, pattern: VISIBLE_TEXT_PATTERN });

export const VideoChannelSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  status: VideoStatusSchema,
  /** Set when status is OFFLINE. */
  offlineReason: Nullable(VideoOfflineReasonSchema),
  codec: Nullable(Type.String()),
  width: Nullable(Type.Integer()),
  height: Nullable(Type.Integer()),
  probedTime: Nullable(EpochMs),
  manufacturer: VideoManufacturerSchema,
  organizationId: Nullable(Type.String()),
  deviceKind: VideoDeviceKindSchema,
  /** The device whose video channel tab shows this channel. */
  deviceId: Nullable(Type.String()),
  channelNo: Type.Integer(),
  host: Nullable(Type.String()),
  rtspPort: Type.Integer(),
  username: Nullable(Type.String()),
  passwordSet: Type.Boolean(),
  streamType: VideoStreamTypeSchema,
  /** Without credentials. */
  rtspAddress: Type.String(),
  nationalCode: Nullable(Type.String()),
  channelCode: Nullable(Type.String()),
  model: Nullable(Type.String()),
  /** `host:port` of the ONVIF device this channel was synced from; null for a channel added by hand. */
  syncSource: Nullable(Type.String()),
  /** The device's media profile token (with syncSource, what a re-sync matches on). */
  syncProfileToken: Nullable(Type.String()),
  /** The last sync of its source did not list its profile any more (kept, not deleted). */
  syncMissing: Type.Boolean(),
  createdTime: EpochMs,
  updatedTime: EpochMs,
});
export type VideoChannel = Static<typeof VideoChannelSchema>;

const channelBodyProperties = {
  name: Type.String({ minLength: 1, maxLength: VIDEO_TEXT_MAX, pattern: `^(?=[\\s\\S]*\\S)${VISIBLE_TEXT_PATTERN.slice(1)}` }),
  manufacturer: VideoManufacturerSchema,
  organizationId: Type.Optional(Nullable(ResourceIdSchema)),
  deviceKind: Type.Optional(VideoDeviceKindSchema),
  deviceId: Type.Optional(Nullable(ResourceIdSchema)),
  channelNo: Type.Optional(Type.Integer({ minimum: 1, maximum: VIDEO_CHANNEL_NO_MAX, default: 1 })),
  /** Required unless the manufacturer is `other` (`error.video.hostRequired`). */
  host: Type.Optional(Nullable(VideoHostSchema)),
  rtspPort: Type.Optional(Type.Integer({ minimum: 1, maximum: 65535, default: RTSP_PORT_DEFAULT })),
  username: Type.Optional(Nullable(Text)),
  /** Write-only; left out on PUT: the stored one stays; '' removes it. */
  password: Type.Optional(Type.String({ maxLength: VIDEO_TEXT_MAX })),
  streamType: Type.Optional(VideoStreamTypeSchema),
  /** Only for `other` (required then): rtsp://host[:port]/path, no credentials. Ignored otherwise. */
  rtspAddress: Type.Optional(Nullable(Type.String({ maxLength: VIDEO_ADDRESS_MAX }))),
  nationalCode: Type.Optional(Nullable(Type.String({ pattern: NATIONAL_CODE_PATTERN }))),
  channelCode: Type.Optional(Nullable(Text)),
  model: Type.Optional(Nullable(Text)),
};
export const VideoChannelBodySchema = Type.Object(channelBodyProperties, { additionalProperties: false });
export type VideoChannelBody = Static<typeof VideoChannelBodySchema>;
export const VideoChannelUpdateBodySchema = UpdateBodyOf(channelBodyProperties);
export type VideoChannelUpdateBody = Static<typeof VideoChannelUpdateBodySchema>;

export const VideoChannelListQuerySchema = Type.Object(
  {
    ...PageQuerySchema.properties,
    name: Type.Optional(Type.String({ maxLength: VIDEO_TEXT_MAX })),
    status: Type.Optional(VideoStatusSchema),
    organizationId: Type.Optional(ResourceIdSchema),
    deviceId: Type.Optional(ResourceIdSchema),
  },
  { additionalProperties: false },
);
export type VideoChannelListQuery = Static<typeof VideoChannelListQuerySchema>;
export const VideoChannelPageSchema = PageOf(VideoChannelSchema);
export type VideoChannelPage = Static<typeof VideoChannelPageSchema>;

export const VideoProbeResultSchema = Type.Object({
  status: Type.Union([Type.Literal('ONLINE'), Type.Literal('OFFLINE')]),
  codec: Type.Optional(Type.String()),
  width: Type.Optional(Type.Integer()),
  height: Type.Optional(Type.Integer()),
  reason: Type.Optional(VideoOfflineReasonSchema),
});
export type VideoProbeResult = Static<typeof VideoProbeResultSchema>;

export const ONVIF_PORT_DEFAULT = 80;
export const VideoSyncBodySchema = Type.Object(
  {
    host: VideoHostSchema,
    port: Type.Optional(Type.Integer({ minimum: 1, maximum: 65535, default: ONVIF_PORT_DEFAULT })),
    username: Type.String({ minLength: 1, maxLength: VIDEO_TEXT_MAX, pattern: VISIBLE_TEXT_PATTERN }),
    password: Type.String({ maxLength: VIDEO_TEXT_MAX }),
  },
  { additionalProperties: false },
);
export type VideoSyncBody = Static<typeof VideoSyncBodySchema>;

/** Counts of one sync; the new and updated channels are probed after the answer. */
export const VideoSyncResultSchema = Type.Object({
  created: Type.Integer(),
  updated: Type.Integer(),
  /** Channels of this device whose profile the device no longer lists (now `syncMissing`). */
  missing: Type.Integer(),
});
export type VideoSyncResult = Static<typeof VideoSyncResultSchema>;

/** What the pages need to know before offering a preview. */
export const VideoCapabilitiesSchema = Type.Object({
  /** ffmpeg and ffprobe were found (`--ffmpeg-dir`, else PATH). */
  ffmpeg: Type.Boolean(),
  maxStreams: Type.Integer(),
  activeStreams: Type.Integer(),
});
export type VideoCapabilities = Static<typeof VideoCapabilitiesSchema>;

/** The live websocket; `:id` is the channel. */
export const VIDEO_LIVE_PATH = '/api/yt/video/channel/:id/live';
export const videoLivePath = (id: string): string => `/api/yt/video/channel/${encodeURIComponent(id)}/live`;
/** Close codes of the live websocket (4000–4999 are the application's own). */
export const VIDEO_CLOSE_AUTH = 1008;
export const VIDEO_CLOSE_LIMIT = 4429;
export const VIDEO_CLOSE_NOT_FOUND = 4404;
export const VIDEO_CLOSE_NO_FFMPEG = 4501;
/** The stream ended (camera gone, ffmpeg exited): the player may reconnect. */
export const VIDEO_CLOSE_ENDED = 4502;
/** How long a channel's ffmpeg outlives its last viewer, so a reopened preview starts at once. */
export const VIDEO_IDLE_STOP_MS = 30_000;
export const VIDEO_MAX_STREAMS_DEFAULT = 4;
/** A thumbnail is grabbed again only once this old. */
export const VIDEO_THUMBNAIL_MAX_AGE_MS = 10 * 60_000;

/** A JPEG (image/jpeg). */
export const VideoThumbnailSchema = Type.Unsafe<Uint8Array>({ type: 'string', format: 'binary', description: 'image/jpeg' });

const tags = ['video'];
const errors = { 400: ErrorBodySchema, 401: ErrorBodySchema, 403: ErrorBodySchema, 404: ErrorBodySchema };
const ChannelIdParams = IdParamsSchema;

export const videoRoutes = defineRoutes({
  list: {
    method: 'GET',
    url: '/api/yt/video/channel',
    schema: { tags, summary: 'Video channels, paged', querystring: VideoChannelListQuerySchema, response: { 200: VideoChannelPageSchema, ...errors } },
    config: { access: 'user', permission: 'video:view' },
  },
  capabilities: {
    method: 'GET',
    url: '/api/yt/video/capabilities',
    schema: { tags, summary: 'Whether ffmpeg is there, and the stream limit', response: { 200: VideoCapabilitiesSchema, ...errors } },
    config: { access: 'user', permission: 'video:view' },
  },
  get: {
    method: 'GET',
    url: '/api/yt/video/channel/:id',
    schema: { tags, summary: 'One video channel', params: ChannelIdParams, response: { 200: VideoChannelSchema, ...errors } },
    config: { access: 'user', permission: 'video:view' },
  },
  create: {
    method: 'POST',
    url: '/api/yt/video/channel',
    schema: { tags, summary: 'Add a video channel', body: VideoChannelBodySchema, response: { 200: VideoChannelSchema, ...errors } },
    config: { access: 'user', permission: 'video:manage' },
  },
  update: {
    method: 'PUT',
    url: '/api/yt/video/channel',
    schema: { tags, summary: 'Edit a video channel', body: VideoChannelUpdateBodySchema, response: { 200: VideoChannelSchema, ...errors } },
    config: { access: 'user', permission: 'video:manage' },
  },
  delete: {
    method: 'DELETE',
    url: '/api/yt/video/channel',
    schema: { tags, summary: 'Delete video channels (their live streams stop)', body: IdsBodySchema, response: { 200: DeleteResultSchema, ...errors } },
    config: { access: 'user', permission: 'video:manage' },
  },
  sync: {
    method: 'POST',
    url: '/api/yt/video/sync',
    schema: { tags, summary: 'Sync channels from an ONVIF camera or NVR (probes follow)', body: VideoSyncBodySchema, response: { 202: VideoSyncResultSchema, ...errors } },
    config: { access: 'user', permission: 'video:manage' },
  },
  probe: {
    method: 'POST',
    url: '/api/yt/video/channel/:id/probe',
    schema: { tags, summary: 'Probe the camera (ffprobe) and store its status', params: ChannelIdParams, response: { 200: VideoProbeResultSchema, ...errors } },
    config: { access: 'user', permission: 'video:view' },
  },
  thumbnail: {
    method: 'GET',
    url: '/api/yt/video/channel/:id/thumbnail',
    schema: { tags, summary: 'One JPEG frame, grabbed at most every 10 minutes', params: ChannelIdParams, response: { 200: VideoThumbnailSchema, ...errors } },
    config: { access: 'user', permission: 'video:view' },
  },
});
