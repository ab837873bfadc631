/**
 * Visualization configurations (dashboards) and their share links (shared/DESIGN.md §4, "Video and
 * visualization").
 *
 * A configuration is a grid layout of widgets; a widget may bind one device's key. Rules the server
 * enforces (400 code 31 unless said otherwise):
 * - name: 1–64 visible characters;
 * - layout: at most VIS_WIDGETS_MAX widgets inside a VIS_GRID_COLUMNS-wide grid, and at most
 *   VIS_LAYOUT_MAX_BYTES of JSON (`error.visualization.layoutTooLarge`);
 * - a bound device exists within the caller's scope when the configuration is saved
 *   (`error.visualization.deviceUnknown`); one deleted later is shown as missing, never refused.
 *
 * A share link opens one configuration without sign-in: its token (VIS_SHARE_TOKEN_BYTES random
 * bytes) is shown once and stored hashed; it reads the layout and the latest values and history of
 * the layout's own bindings, nothing else, and sends no commands. Revoked, expired or unknown: 404.
 */
import Type, { type Static } from 'typebox';
import { defineRoutes } from './route.ts';
import { ErrorBodySchema } from './errors.ts';
import { DeleteResultSchema, EpochMs, IdParamsSchema, IdsBodySchema, Nullable, OkSchema, PageOf, PageQuerySchema, ResourceIdSchema, UpdateBodyOf } from './common.ts';
import { VISIBLE_TEXT_PATTERN } from './validation.ts';
import type { AlarmSeverity, AlarmStatus } from './alarm.ts';

export const visualizationPlatforms = ['pc', 'phone'] as const;
export type VisualizationPlatform = (typeof visualizationPlatforms)[number];

export const widgetTypes = ['value', 'gauge', 'chart', 'status', 'switch', 'button', 'text', 'image', 'alarms', 'video'] as const;
export type WidgetType = (typeof widgetTypes)[number];

/** Grid columns of every layout; rows grow downwards. */
export const VIS_GRID_COLUMNS = 24;
export const VIS_GRID_ROWS_MAX = 400;
export const VIS_WIDGETS_MAX = 100;
/** A layout's JSON text: plenty for a hundred widgets, small enough for a share page on a phone. */
export const VIS_LAYOUT_MAX_BYTES = 64 * 1024;
export const VIS_NAME_MAX = 64;
/** A thumbnail is a small PNG or JPEG data URL rendered by the console when saving. */
export const VIS_THUMBNAIL_MAX = 96 * 1024;
export const VIS_SHARE_TOKEN_BYTES = 32;
/**
 * The binding key of an alarm list widget bound to one device (checked in scope on save like any
 * binding). An alarm list may instead name several devices or a product (`alarmSource`); a share
 * link then reads exactly the active alarms of the devices its alarm lists name.
 */
export const ALARM_WIDGET_KEY = 'alarms';
/** Rows an alarm list shows unless told otherwise, and the most a share link sends. */
export const VIS_ALARM_ROWS_DEFAULT = 10;
export const VIS_ALARM_ROWS_MAX = 100;

export const WidgetBindingSchema = Type.Object(
  { deviceId: ResourceIdSchema, key: Type.String({ minLength: 1, maxLength: 128 }) },
  { additionalProperties: false },
);
export type WidgetBinding = Static<typeof WidgetBindingSchema>;

/** Devices one alarm list may name. */
export const VIS_ALARM_DEVICES_MAX = 50;
/** A product's devices an alarm list follows at most (the oldest first). */
export const VIS_ALARM_PRODUCT_DEVICES_MAX = 1000;

/**
 * What an alarm list shows besides its single-device `binding`: the alarms of several devices, and
 * of a product's devices as they are at each read, inside the configuration's organization (all of
 * the gateway's for a configuration in none). Both: the union.
 */
export const WidgetAlarmSourceSchema = Type.Object(
  {
    deviceIds: Type.Optional(Type.Array(ResourceIdSchema, { maxItems: VIS_ALARM_DEVICES_MAX, uniqueItems: true })),
    productId: Type.Optional(ResourceIdSchema),
  },
  { additionalProperties: false },
);
export type WidgetAlarmSource = Static<typeof WidgetAlarmSourceSchema>;

/** An image widget's `src`: a file of this gateway's upload store (type checked by content, size-limited), never another site. */
export const VIS_IMAGE_SRC_PATTERN = '^/api/yt/oss/files/[A-Za-z0-9._-]{1,200}$';

/** Widget settings: flat scalars (title, unit, colours, the command a switch sends, text). */
const WidgetPropValue = Type.Union([Type.String({ maxLength: 4000 }), Type.Number(), Type.Boolean(), Type.Null()]);

export const WidgetSchema = Type.Object(
  {
    id: Type.String({ minLength: 1, maxLength: 64 }),
    type: Type.Enum(widgetTypes),
    x: Type.Integer({ minimum: 0, maximum: VIS_GRID_COLUMNS - 1 }),
    y: Type.Integer({ minimum: 0, maximum: VIS_GRID_ROWS_MAX }),
    w: Type.Integer({ minimum: 1, maximum: VIS_GRID_COLUMNS }),
    h: Type.Integer({ minimum: 1, maximum: 60 }),
    binding: Type.Optional(WidgetBindingSchema),
    /** Alarm lists only (ignored on other types). */
    alarmSource: Type.Optional(WidgetAlarmSourceSchema),
    props: Type.Record(Type.String({ maxLength: 64 }), WidgetPropValue, { maxProperties: 32 }),
  },
  { additionalProperties: false },
);
export type Widget = Static<typeof WidgetSchema>;

export const LayoutSchema = Type.Object({ widgets: Type.Array(WidgetSchema, { maxItems: VIS_WIDGETS_MAX }) }, { additionalProperties: false });
export type Layout = Static<typeof LayoutSchema>;

const summaryProperties = {
  id: Type.String(),
  name: Type.String(),
  platform: Type.Enum(visualizationPlatforms),
  template: Type.Boolean(),
  organizationId: Nullable(Type.String()),
  thumbnail: Type.Optional(Type.String()),
  /** Whether a share link is live (not revoked, not expired). */
  shared: Type.Boolean(),
  updatedTime: EpochMs,
};

export const VisualizationSummarySchema = Type.Object(summaryProperties);
export type VisualizationSummary = Static<typeof VisualizationSummarySchema>;

export const VisualizationSchema = Type.Object({ ...summaryProperties, layout: LayoutSchema, createdTime: EpochMs });
export type Visualization = Static<typeof VisualizationSchema>;

const bodyProperties = {
  name: Type.String({ minLength: 1, maxLength: VIS_NAME_MAX, pattern: VISIBLE_TEXT_PATTERN }),
  platform: Type.Enum(visualizationPlatforms),
  template: Type.Optional(Type.Boolean()),
  organizationId: Type.Optional(Nullable(ResourceIdSchema)),
  thumbnail: Type.Optional(Type.String({ maxLength: VIS_THUMBNAIL_MAX, pattern: '^data:image/(png|jpeg);base64,[A-Za-z0-9+/=]+$' })),
  layout: LayoutSchema,
};

export const VisualizationBodySchema = Type.Object(bodyProperties, { additionalProperties: false });
export type VisualizationBody = Static<typeof VisualizationBodySchema>;
export const VisualizationUpdateBodySchema = UpdateBodyOf(bodyProperties);
export type VisualizationUpdateBody = Static<typeof VisualizationUpdateBodySchema>;

export const VisualizationListQuerySchema = Type.Object({
  ...PageQuerySchema.properties,
  name: Type.Optional(Type.String({ maxLength: VIS_NAME_MAX })),
  platform: Type.Optional(Type.Enum(visualizationPlatforms)),
  template: Type.Optional(Type.Boolean()),
});
export type VisualizationListQuery = Static<typeof VisualizationListQuerySchema>;
export const VisualizationPageSchema = PageOf(VisualizationSummarySchema);
export type VisualizationPage = Static<typeof VisualizationPageSchema>;

export const ShareBodySchema = Type.Object({ expiresAt: Type.Optional(EpochMs) }, { additionalProperties: false });
export type ShareBody = Static<typeof ShareBodySchema>;

export const ShareLinkSchema = Type.Object({
  /** Shown once: the server keeps only its hash. */
  shareToken: Type.String(),
  /** The console path that opens it (`/visualization/share/{shareToken}`). */
  url: Type.String(),
  expiresAt: Type.Optional(EpochMs),
});
export type ShareLink = Static<typeof ShareLinkSchema>;

export const ShareTokenParamsSchema = Type.Object({ shareToken: Type.String({ minLength: 1, maxLength: 128 }) });

export const SharedVisualizationSchema = Type.Object({ name: Type.String(), platform: Type.Enum(visualizationPlatforms), layout: LayoutSchema });
export type SharedVisualization = Static<typeof SharedVisualizationSchema>;

export const LatestPointSchema = Type.Object({ ts: EpochMs, value: Type.Unknown() });
/** `{ [deviceId]: { [key]: { ts, value } } }`: a binding without a value (or a deleted device) is absent. */
export const SharedLatestSchema = Type.Record(Type.String(), Type.Record(Type.String(), LatestPointSchema));
export type SharedLatest = Static<typeof SharedLatestSchema>;

/** The live command of a share page (server/contract/realtime.ts, VIS_SHARE): a guest socket's credential is the link's token. */
export const VIS_SHARE_CMD = 'VIS_SHARE';
export const SharedLiveCmdSchema = Type.Object({
  type: Type.Literal(VIS_SHARE_CMD),
  cmdId: Type.Integer({ minimum: 0, maximum: 2_147_483_647 }),
  shareToken: Type.String({ minLength: 1, maxLength: 128 }),
});
export type SharedLiveCmd = Static<typeof SharedLiveCmdSchema>;

/** What a share page learns of an alarm: enough for a read-only row, nothing of who acknowledged it. */
export interface SharedAlarm {
  id: string;
  deviceId: string;
  deviceName: string | null;
  type: string;
  severity: AlarmSeverity;
  status: AlarmStatus;
  createdTime: number;
  /** The layout's alarm lists that show it (a share page may hold several, each naming its own devices). */
  widgetIds: string[];
}

/**
 * A share page's live answer: the first holds every bound pair's latest value and the active alarms
 * of the devices its alarm lists bind, each later one what arrived (an alarm no longer active comes
 * once more with its new status, so the page drops it).
 */
export interface SharedLiveUpdate {
  cmdId: number;
  subscriptionId: number;
  errorCode: 0;
  errorMsg: null;
  data: SharedLatest;
  alarms?: SharedAlarm[];
  cmdUpdateType: typeof VIS_SHARE_CMD;
}

export const SharedHistoryQuerySchema = Type.Object({
  deviceId: ResourceIdSchema,
  key: Type.String({ minLength: 1, maxLength: 128 }),
  startTs: EpochMs,
  endTs: Type.Optional(EpochMs),
});
export type SharedHistoryQuery = Static<typeof SharedHistoryQuerySchema>;
export const SharedHistorySchema = Type.Array(LatestPointSchema);

export function shareUrlOf(shareToken: string): string {
  return `/visualization/share/${shareToken}`;
}

const tags = ['visualization'];
const errors = { 400: ErrorBodySchema, 401: ErrorBodySchema, 404: ErrorBodySchema };
const publicErrors = { 400: ErrorBodySchema, 404: ErrorBodySchema, 429: ErrorBodySchema };

export const visualizationRoutes = defineRoutes({
  list: {
    method: 'GET',
    url: '/api/yt/visualization',
    schema: { tags, summary: 'Visualization configurations as a page (name, platform, template)', querystring: VisualizationListQuerySchema, response: { 200: VisualizationPageSchema, ...errors } },
    config: { access: 'user', permission: 'visualization:manage' },
  },
  get: {
    method: 'GET',
    url: '/api/yt/visualization/:id',
    schema: { tags, summary: 'One configuration with its layout', params: IdParamsSchema, response: { 200: VisualizationSchema, ...errors } },
    config: { access: 'user', permission: 'visualization:manage' },
  },
  create: {
    method: 'POST',
    url: '/api/yt/visualization',
    schema: { tags, summary: 'Create a configuration (blank, or a copy of a template)', body: VisualizationBodySchema, response: { 200: VisualizationSchema, ...errors } },
    config: { access: 'user', permission: 'visualization:manage' },
  },
  update: {
    method: 'PUT',
    url: '/api/yt/visualization',
    schema: { tags, summary: 'Save a configuration', body: VisualizationUpdateBodySchema, response: { 200: VisualizationSchema, ...errors } },
    config: { access: 'user', permission: 'visualization:manage' },
  },
  delete: {
    method: 'DELETE',
    url: '/api/yt/visualization',
    schema: { tags, summary: 'Delete configurations (with their share links)', body: IdsBodySchema, response: { 200: DeleteResultSchema, ...errors } },
    config: { access: 'user', permission: 'visualization:manage' },
  },
  share: {
    method: 'POST',
    url: '/api/yt/visualization/:id/share',
    schema: { tags, summary: 'Create the share link (replaces an earlier one)', params: IdParamsSchema, body: ShareBodySchema, response: { 200: ShareLinkSchema, ...errors } },
    config: { access: 'user', permission: 'visualization:manage' },
  },
  unshare: {
    method: 'DELETE',
    url: '/api/yt/visualization/:id/share',
    schema: { tags, summary: 'Revoke the share link at once', params: IdParamsSchema, response: { 200: OkSchema, ...errors } },
    config: { access: 'user', permission: 'visualization:manage' },
  },
  shared: {
    method: 'GET',
    url: '/api/yt/visualization/share/:shareToken',
    schema: { tags, summary: 'A shared configuration (no sign-in)', params: ShareTokenParamsSchema, response: { 200: SharedVisualizationSchema, ...publicErrors } },
    config: { access: 'public' },
  },
  sharedLatest: {
    method: 'GET',
    url: '/api/yt/visualization/share/:shareToken/latest',
    schema: { tags, summary: "Latest values of a shared configuration's bindings (no sign-in)", params: ShareTokenParamsSchema, response: { 200: SharedLatestSchema, ...publicErrors } },
    config: { access: 'public' },
  },
  sharedHistory: {
    method: 'GET',
    url: '/api/yt/visualization/share/:shareToken/history',
    schema: {
      tags,
      summary: "History of one of a shared configuration's chart bindings (no sign-in)",
      params: ShareTokenParamsSchema,
      querystring: SharedHistoryQuerySchema,
      response: { 200: SharedHistorySchema, ...publicErrors },
    },
    config: { access: 'public' },
  },
});
