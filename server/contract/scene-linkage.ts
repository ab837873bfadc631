/**
 * Scene linkage (`/api/yt/scene_linkage`, the console's rule engine page): "when these triggers
 * fire, and these conditions hold, run these actions", with a schedule saying when the scene is in
 * force and one clear rule per trigger.
 *
 * Semantics (server/modules/rule-engine/):
 * - any one trigger fires the scene; every condition must then hold against the devices' latest
 *   values (no conditions: always); then every action runs in order. A failing action is written to
 *   the execution log and the next one still runs.
 * - DEVICE_TRIGGER / TIME_SERIES compares a telemetry key of the product's PUBLISHED thing model:
 *   SIMPLE fires when the comparison becomes true (not on every message while it stays true),
 *   DURATION when it has stayed true for `duration`, REPEATING after `repeat` true messages in a row.
 *   DEVICE_EVENT fires each time a device reports the event `key` (an event of the published model);
 *   with `param`, `operation` and `value`, only when that output parameter compares true.
 *   Counts and timers in progress start again after a restart.
 * - SCHEDULE_TRIGGER fires at each time of its cron expression (croner; 5 or 6 fields, seconds
 *   first when 6) in `timeZone` (IANA). SCENE_TRIGGER fires when scene `sceneId` has fired (a cycle
 *   is refused when saving, `error.scene.cycle`). HAND_ACT fires only from the execute call.
 * - Outside `schedule` no trigger fires (HAND_ACT included: the execute call answers
 *   `error.scene.outsideSchedule`).
 * - DEVICE_OUT sends a command (server/contract/command.ts) as an ASYNC oneway command, queued while
 *   the device is offline; MSG_NOTIFY raises an alarm (server/contract/alarm.ts) on the device that
 *   fired the trigger (or updates the open one) and a notification for every user.
 *   `clearRules[i]` clears the alarm raised through `triggers[i]` when it compares true on a message
 *   of that device (null: cleared by hand only).
 *
 * Bad input: 400 code 31, `key` the first broken rule's, with `details` naming each field
 * (`body.triggers.0.key`, …) and its rule's key; unknown scene 404 code 32 `error.notFound`. Nothing is
 * saved when anything is refused. The pure checks are in server/contract/rules/scene-linkage.ts.
 */
import Type, { type Static } from 'typebox';
import { defineRoutes } from './route.ts';
import { ErrorBodySchema } from './errors.ts';
import { DeleteResultSchema, EpochMs, IdParamsSchema, IdsBodySchema, Nullable, PageOf, PageQuerySchema, ResourceIdSchema } from './common.ts';
import { CommandBodySchema, CommandTypeSchema } from './command.ts';
import { AlarmSeveritySchema } from './alarm.ts';

/** triggerType */
export const triggerTypes = ['DEVICE_TRIGGER', 'SCHEDULE_TRIGGER', 'SCENE_TRIGGER', 'HAND_ACT'] as const;
export const TriggerTypeSchema = Type.Enum(triggerTypes);
export type TriggerType = (typeof triggerTypes)[number];

/** deviceTriggerType */
export const deviceTriggerTypes = ['TIME_SERIES', 'DEVICE_EVENT'] as const;
export const DeviceTriggerTypeSchema = Type.Enum(deviceTriggerTypes);
export type DeviceTriggerType = (typeof deviceTriggerTypes)[number];

/** conditionType */
export const conditionTypes = ['SIMPLE', 'DURATION', 'REPEATING'] as const;
export const ConditionTypeSchema = Type.Enum(conditionTypes);
export type ConditionType = (typeof conditionTypes)[number];

/** triggerOperation: the ten comparisons. */
export const triggerOperations = [
  'EQUAL',
  'NOT_EQUAL',
  'STARTS_WITH',
  'ENDS_WITH',
  'CONTAINS',
  'NOT_CONTAINS',
  'LESS',
  'LESS_OR_EQUAL',
  'GREATER',
  'GREATER_OR_EQUAL',
] as const;
export const TriggerOperationSchema = Type.Enum(triggerOperations);
export type TriggerOperation = (typeof triggerOperations)[number];

/** triggerValueType */
export const triggerValueTypes = ['NUMERIC', 'BOOLEAN', 'STRING', 'DATE_TIME'] as const;
export const TriggerValueTypeSchema = Type.Enum(triggerValueTypes);
export type TriggerValueType = (typeof triggerValueTypes)[number];

/** Which operations each value type takes (text operations only for STRING; order ones not for BOOLEAN). */
export const operationsByValueType: Readonly<Record<TriggerValueType, readonly TriggerOperation[]>> = {
  NUMERIC: ['EQUAL', 'NOT_EQUAL', 'LESS', 'LESS_OR_EQUAL', 'GREATER', 'GREATER_OR_EQUAL'],
  DATE_TIME: ['EQUAL', 'NOT_EQUAL', 'LESS', 'LESS_OR_EQUAL', 'GREATER', 'GREATER_OR_EQUAL'],
  BOOLEAN: ['EQUAL', 'NOT_EQUAL'],
  STRING: ['EQUAL', 'NOT_EQUAL', 'STARTS_WITH', 'ENDS_WITH', 'CONTAINS', 'NOT_CONTAINS'],
};

/** timeUnit of a DURATION. */
export const timeUnits = ['SECONDS', 'MINUTES', 'HOURS', 'DAYS'] as const;
export const TimeUnitSchema = Type.Enum(timeUnits);
export type TimeUnit = (typeof timeUnits)[number];
export const timeUnitMs: Readonly<Record<TimeUnit, number>> = { SECONDS: 1000, MINUTES: 60_000, HOURS: 3_600_000, DAYS: 86_400_000 };

/** scheduleType: when the scene is in force. */
export const scheduleTypes = ['ANY_TIME', 'SPECIFIC_TIME', 'CUSTOM'] as const;
export const ScheduleTypeSchema = Type.Enum(scheduleTypes);
export type ScheduleType = (typeof scheduleTypes)[number];

/** executionAction */
export const executionActions = ['DEVICE_OUT', 'MSG_NOTIFY'] as const;
export const ExecutionActionSchema = Type.Enum(executionActions);
export type ExecutionAction = (typeof executionActions)[number];

export const SCENE_NAME_MAX = 30;
export const SCENE_DESCRIPTION_MAX = 255;
export const SCENE_TRIGGERS_MAX = 10;
export const SCENE_CONDITIONS_MAX = 10;
export const SCENE_ACTIONS_MAX = 10;
/** Devices one trigger or condition may name (empty: every device of the product). */
export const SCENE_DEVICE_IDS_MAX = 100;
/** A DURATION lasts at most 30 days; a REPEATING count is 2 to 1000 messages. */
export const DURATION_MAX_MS = 30 * 86_400_000;
export const REPEAT_MIN = 2;
export const REPEAT_MAX = 1000;
export const CRON_MAX = 100;
export const TIME_ZONE_MAX = 64;
export const ALARM_TYPE_MAX = 64;
export const ALARM_MESSAGE_MAX = 255;
export const SCENE_VALUE_TEXT_MAX = 1024;
/** Next run times the console shows under a cron expression. */
export const CRON_PREVIEW_COUNT = 5;
/** HH:mm, 00:00 to 23:59. */
export const CLOCK_TIME_PATTERN = '^([01][0-9]|2[0-3]):[0-5][0-9]$';
/** ISO weekday: 1 Monday … 7 Sunday. */
export const WeekdaySchema = Type.Integer({ minimum: 1, maximum: 7 });

/**
 * A compared value: a number (NUMERIC; DATE_TIME as epoch ms), a boolean (BOOLEAN) or text
 * (STRING; DATE_TIME as an ISO date). No schema `type`: a type list would need ajv's union types,
 * and anyOf would let its coercion turn `true` into 1; the scene checks
 * (server/contract/rules/scene-linkage.ts, sceneValueProblem) refuse anything but these three.
 */
export const SceneValueSchema = Type.Unsafe<string | number | boolean>({ description: 'number, boolean or text, as valueType says' });
export type SceneValue = Static<typeof SceneValueSchema>;

const DeviceIds = Type.Array(ResourceIdSchema, { maxItems: SCENE_DEVICE_IDS_MAX });
const Key = Type.String({ minLength: 1, maxLength: 128 });

export const DurationSchema = Type.Object(
  { value: Type.Integer({ minimum: 1, maximum: 1_000_000 }), unit: TimeUnitSchema },
  { additionalProperties: false },
);
export type Duration = Static<typeof DurationSchema>;

export const DeviceTriggerSchema = Type.Object(
  {
    type: Type.Literal('DEVICE_TRIGGER'),
    deviceTriggerType: DeviceTriggerTypeSchema,
    deviceProfileId: ResourceIdSchema,
    deviceIds: DeviceIds,
    /** TIME_SERIES: a property identifier; DEVICE_EVENT: an event identifier. */
    key: Key,
    /** DEVICE_EVENT only: the output parameter compared (none: every report of the event fires). */
    param: Type.Optional(Key),
    /** Required for TIME_SERIES and for DEVICE_EVENT with `param`. */
    operation: Type.Optional(TriggerOperationSchema),
    valueType: Type.Optional(TriggerValueTypeSchema),
    value: Type.Optional(SceneValueSchema),
    ignoreCase: Type.Optional(Type.Boolean()),
    conditionType: ConditionTypeSchema,
    /** DURATION only. */
    duration: Type.Optional(DurationSchema),
    /** REPEATING only: consecutive true messages. */
    repeat: Type.Optional(Type.Integer({ minimum: REPEAT_MIN, maximum: REPEAT_MAX })),
  },
  { additionalProperties: false },
);
export type DeviceTrigger = Static<typeof DeviceTriggerSchema>;

export const ScheduleTriggerSchema = Type.Object(
  {
    type: Type.Literal('SCHEDULE_TRIGGER'),
    cron: Type.String({ minLength: 1, maxLength: CRON_MAX }),
    timeZone: Type.String({ minLength: 1, maxLength: TIME_ZONE_MAX }),
  },
  { additionalProperties: false },
);
export type ScheduleTrigger = Static<typeof ScheduleTriggerSchema>;

export const SceneTriggerSchema = Type.Object(
  { type: Type.Literal('SCENE_TRIGGER'), sceneId: ResourceIdSchema },
  { additionalProperties: false },
);
export type SceneTrigger = Static<typeof SceneTriggerSchema>;

export const HandActTriggerSchema = Type.Object({ type: Type.Literal('HAND_ACT') }, { additionalProperties: false });
export type HandActTrigger = Static<typeof HandActTriggerSchema>;

export const TriggerSchema = Type.Union([DeviceTriggerSchema, ScheduleTriggerSchema, SceneTriggerSchema, HandActTriggerSchema]);
export type Trigger = Static<typeof TriggerSchema>;

/** A condition filter (and a clear rule): a comparison on the latest value of a device's key. */
export const ConditionSchema = Type.Object(
  {
    deviceProfileId: ResourceIdSchema,
    deviceIds: DeviceIds,
    key: Key,
    operation: TriggerOperationSchema,
    valueType: TriggerValueTypeSchema,
    value: SceneValueSchema,
    ignoreCase: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type Condition = Static<typeof ConditionSchema>;

export const DeviceOutActionSchema = Type.Object(
  {
    type: Type.Literal('DEVICE_OUT'),
    deviceId: ResourceIdSchema,
    commandType: CommandTypeSchema,
    /** As a command's content (server/contract/command.ts): JSON text or an object. */
    content: CommandBodySchema.properties.content,
  },
  { additionalProperties: false },
);
export type DeviceOutAction = Static<typeof DeviceOutActionSchema>;

export const MsgNotifyActionSchema = Type.Object(
  {
    type: Type.Literal('MSG_NOTIFY'),
    severity: AlarmSeveritySchema,
    alarmType: Type.String({ minLength: 1, maxLength: ALARM_TYPE_MAX }),
    message: Type.Optional(Type.String({ maxLength: ALARM_MESSAGE_MAX })),
  },
  { additionalProperties: false },
);
export type MsgNotifyAction = Static<typeof MsgNotifyActionSchema>;

export const ActionSchema = Type.Union([DeviceOutActionSchema, MsgNotifyActionSchema]);
export type Action = Static<typeof ActionSchema>;

const ClockTime = Type.String({ pattern: CLOCK_TIME_PATTERN });
const TimeZone = Type.String({ minLength: 1, maxLength: TIME_ZONE_MAX });

export const AnyTimeScheduleSchema = Type.Object({ scheduleType: Type.Literal('ANY_TIME') }, { additionalProperties: false });
/** Chosen weekdays between startTime and endTime (an end before the start runs past midnight). */
export const SpecificTimeScheduleSchema = Type.Object(
  {
    scheduleType: Type.Literal('SPECIFIC_TIME'),
    timeZone: TimeZone,
    weekdays: Type.Array(WeekdaySchema, { minItems: 1, maxItems: 7 }),
    startTime: ClockTime,
    endTime: ClockTime,
  },
  { additionalProperties: false },
);
export const CustomScheduleItemSchema = Type.Object(
  { weekday: WeekdaySchema, enabled: Type.Boolean(), startTime: ClockTime, endTime: ClockTime },
  { additionalProperties: false },
);
export type CustomScheduleItem = Static<typeof CustomScheduleItemSchema>;
/** A window per weekday (at most one item per weekday; a weekday without an enabled item is out). */
export const CustomScheduleSchema = Type.Object(
  {
    scheduleType: Type.Literal('CUSTOM'),
    timeZone: TimeZone,
    items: Type.Array(CustomScheduleItemSchema, { minItems: 1, maxItems: 7 }),
  },
  { additionalProperties: false },
);
/**
 * ANY_TIME last: ajv (removeAdditional) strips a branch's unknown fields before checking its
 * `scheduleType`, so the branch with the fewest required fields must be tried last. Likewise
 * HAND_ACT is the last trigger.
 */
export const ScheduleSchema = Type.Union([SpecificTimeScheduleSchema, CustomScheduleSchema, AnyTimeScheduleSchema]);
export type Schedule = Static<typeof ScheduleSchema>;

const sceneFields = {
  name: Type.String({ minLength: 1, maxLength: SCENE_NAME_MAX }),
  description: Type.Optional(Nullable(Type.String({ maxLength: SCENE_DESCRIPTION_MAX }))),
  enabled: Type.Boolean(),
  /**
   * Offered to customer users (default false): a customer sees and runs a scene only when it is
   * marked so, is run by hand (HAND_ACT) and all its devices lie in their organizations.
   */
  forCustomers: Type.Optional(Type.Boolean()),
  /** Default ANY_TIME. */
  schedule: Type.Optional(ScheduleSchema),
  triggers: Type.Array(TriggerSchema, { maxItems: SCENE_TRIGGERS_MAX }),
  conditions: Type.Array(ConditionSchema, { maxItems: SCENE_CONDITIONS_MAX }),
  actions: Type.Array(ActionSchema, { maxItems: SCENE_ACTIONS_MAX }),
  /** One per trigger: `clearRules[i]` clears the alarm raised through `triggers[i]`; null = by hand only. */
  clearRules: Type.Array(Nullable(ConditionSchema), { maxItems: SCENE_TRIGGERS_MAX }),
};

export const SceneCreateBodySchema = Type.Object(sceneFields, { additionalProperties: false });
export type SceneCreateBody = Static<typeof SceneCreateBodySchema>;
export const SceneUpdateBodySchema = Type.Object({ id: ResourceIdSchema, ...sceneFields }, { additionalProperties: false });
export type SceneUpdateBody = Static<typeof SceneUpdateBodySchema>;

export const SceneSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  description: Nullable(Type.String()),
  enabled: Type.Boolean(),
  forCustomers: Type.Boolean(),
  schedule: ScheduleSchema,
  triggers: Type.Array(TriggerSchema),
  conditions: Type.Array(ConditionSchema),
  actions: Type.Array(ActionSchema),
  clearRules: Type.Array(Nullable(ConditionSchema)),
  createdTime: EpochMs,
  updatedTime: EpochMs,
});
export type Scene = Static<typeof SceneSchema>;

export const SceneListQuerySchema = Type.Object(
  {
    ...PageQuerySchema.properties,
    /** Part of the name (case-insensitive). */
    name: Type.Optional(Type.String({ maxLength: SCENE_NAME_MAX })),
    enabled: Type.Optional(Type.Boolean()),
    /** Scenes with a DEVICE_OUT action to this device (the device page's task tab). */
    deviceId: Type.Optional(ResourceIdSchema),
    /** Scenes with a trigger of this type (SCHEDULE_TRIGGER for the task tab). */
    triggerType: Type.Optional(TriggerTypeSchema),
  },
  { additionalProperties: false },
);
export type SceneListQuery = Static<typeof SceneListQuerySchema>;
export const ScenePageSchema = PageOf(SceneSchema);
export type ScenePage = Static<typeof ScenePageSchema>;

export const SceneEnabledBodySchema = Type.Object({ enabled: Type.Boolean() }, { additionalProperties: false });

/** Outcome of one action of one run. */
export const actionOutcomes = ['SUCCESS', 'FAILED'] as const;
export const ActionOutcomeSchema = Type.Enum(actionOutcomes);
export type ActionOutcome = (typeof actionOutcomes)[number];

export const ActionResultSchema = Type.Object({
  /** Index in the scene's `actions`. */
  index: Type.Integer({ minimum: 0 }),
  type: ExecutionActionSchema,
  outcome: ActionOutcomeSchema,
  /** DEVICE_OUT: the command record's id; MSG_NOTIFY: the alarm's id. */
  resultId: Nullable(Type.String()),
  /** Why it failed: the error key (errors.json) or message. */
  error: Nullable(Type.String()),
});
export type ActionResult = Static<typeof ActionResultSchema>;

/** One run of a scene, or a trigger that fired while its conditions did not hold (`conditionsMet` false, no actions). */
export const SceneLogEntrySchema = Type.Object({
  id: Type.String(),
  sceneLinkageId: Type.String(),
  ts: EpochMs,
  /** Index in `triggers` of the trigger that fired; null for the execute call of a scene without HAND_ACT. */
  triggerIndex: Nullable(Type.Integer({ minimum: 0 })),
  triggerType: TriggerTypeSchema,
  /** The device whose message fired it (device triggers). */
  deviceId: Nullable(Type.String()),
  /** The value that fired it (device triggers). */
  value: Nullable(Type.Unsafe<unknown>({})),
  conditionsMet: Type.Boolean(),
  actions: Type.Array(ActionResultSchema),
});
export type SceneLogEntry = Static<typeof SceneLogEntrySchema>;
export const SceneLogPageSchema = PageOf(SceneLogEntrySchema);
export type SceneLogPage = Static<typeof SceneLogPageSchema>;

/** Execution logs kept per scene (older entries go). */
export const SCENE_LOG_KEEP = 1000;

const tags = ['scene-linkage'];
const errors = { 400: ErrorBodySchema, 401: ErrorBodySchema, 404: ErrorBodySchema };

export const sceneLinkageRoutes = defineRoutes({
  list: {
    method: 'GET',
    url: '/api/yt/scene_linkage',
    schema: { tags, summary: 'Scenes, newest first', querystring: SceneListQuerySchema, response: { 200: ScenePageSchema, ...errors } },
    config: { access: 'user', permission: 'scene_linkage:list' },
  },
  get: {
    method: 'GET',
    url: '/api/yt/scene_linkage/:id',
    schema: { tags, summary: 'One scene', params: IdParamsSchema, response: { 200: SceneSchema, ...errors } },
    config: { access: 'user', permission: 'scene_linkage:view' },
  },
  create: {
    method: 'POST',
    url: '/api/yt/scene_linkage',
    schema: { tags, summary: 'Create a scene', body: SceneCreateBodySchema, response: { 200: SceneSchema, ...errors } },
    config: { access: 'user', permission: 'scene_linkage:create' },
  },
  update: {
    method: 'PUT',
    url: '/api/yt/scene_linkage',
    schema: { tags, summary: 'Replace a scene', body: SceneUpdateBodySchema, response: { 200: SceneSchema, ...errors } },
    config: { access: 'user', permission: 'scene_linkage:update' },
  },
  remove: {
    method: 'DELETE',
    url: '/api/yt/scene_linkage',
    schema: {
      tags,
      summary: 'Delete scenes (a scene another scene triggers on is refused, error.scene.inUse)',
      body: IdsBodySchema,
      response: { 200: DeleteResultSchema, ...errors },
    },
    config: { access: 'user', permission: 'scene_linkage:delete' },
  },
  setEnabled: {
    method: 'PUT',
    url: '/api/yt/scene_linkage/:id/enabled',
    schema: { tags, summary: 'Switch a scene on or off', params: IdParamsSchema, body: SceneEnabledBodySchema, response: { 200: SceneSchema, ...errors } },
    config: { access: 'user', permission: 'scene_linkage:update' },
  },
  execute: {
    method: 'POST',
    url: '/api/yt/scene_linkage/:id/execute',
    schema: {
      tags,
      summary: 'Run a scene by hand (HAND_ACT): conditions are checked, then the actions run; answers the log entry',
      params: IdParamsSchema,
      response: { 200: SceneLogEntrySchema, ...errors },
    },
    config: { access: 'user', permission: 'scene_linkage:execute' },
  },
  log: {
    method: 'GET',
    url: '/api/yt/scene_linkage/:id/log',
    schema: {
      tags,
      summary: 'Execution log of a scene, newest first',
      params: IdParamsSchema,
      querystring: Type.Object(PageQuerySchema.properties, { additionalProperties: false }),
      response: { 200: SceneLogPageSchema, ...errors },
    },
    config: { access: 'user', permission: 'scene_linkage:view' },
  },
});
