/**
 * The scene editor's values and the scene body (server/contract/scene-linkage.ts) both ways. The
 * form keeps a few things the wire does not: "all devices" as its own switch (the wire says it with
 * an empty `deviceIds`), each trigger's clear rule inside the trigger (so adding or removing a
 * trigger keeps the one-to-one pairing the server requires), and a DEVICE_OUT action's service or
 * property with typed inputs (the wire has the command content). Pure.
 */
import type { CommandType } from '../../../server/contract/command.ts';
import type { AlarmSeverity } from '../../../server/contract/alarm.ts';
import type {
  Action,
  Condition,
  ConditionType,
  CustomScheduleItem,
  DeviceTriggerType,
  Schedule,
  ScheduleType,
  Scene,
  SceneCreateBody,
  SceneValue,
  TimeUnit,
  Trigger,
  TriggerOperation,
  TriggerType,
  TriggerValueType,
} from '../../../server/contract/scene-linkage.ts';
import type { DataType, ThingModelTsl } from '../../../server/contract/thing-model.ts';
import { paramValue, parseJson, serviceContent, type ParamInput } from '../command/commandForm.ts';

/** A comparison on a device key: a condition filter, a clear rule, a device trigger's core. */
export interface ComparisonValues {
  deviceProfileId?: string;
  /** True: every device of the product (wire: `deviceIds: []`). */
  allDevices?: boolean;
  deviceIds?: string[];
  key?: string;
  operation?: TriggerOperation;
  valueType?: TriggerValueType;
  value?: SceneValue;
  ignoreCase?: boolean;
}

export interface ClearValues extends ComparisonValues {
  /** False: the alarm this trigger raised is cleared by hand only (wire: null). */
  enabled?: boolean;
}

export interface TriggerValues extends ComparisonValues {
  type: TriggerType;
  deviceTriggerType?: DeviceTriggerType;
  /** DEVICE_EVENT: the output parameter compared (empty: every report fires). */
  param?: string;
  conditionType?: ConditionType;
  duration?: { value?: number; unit?: TimeUnit };
  repeat?: number;
  cron?: string;
  timeZone?: string;
  sceneId?: string;
  clear?: ClearValues;
}

/** The DEVICE_OUT command types the editor offers with typed inputs; others keep their JSON. */
export type DeviceOutMode = Extract<CommandType, 'SERVICE' | 'ATTRIBUTE' | 'CUSTOM'>;

export interface ActionValues {
  type: Action['type'];
  deviceProfileId?: string;
  deviceId?: string;
  commandType?: CommandType;
  service?: string;
  params?: Record<string, ParamInput>;
  property?: string;
  propertyValue?: ParamInput;
  /** CUSTOM and API: JSON text as written. */
  content?: string;
  severity?: AlarmSeverity;
  alarmType?: string;
  message?: string;
}

export interface ScheduleValues {
  scheduleType: ScheduleType;
  timeZone?: string;
  weekdays?: number[];
  startTime?: string;
  endTime?: string;
  items?: CustomScheduleItem[];
}

export interface SceneValues {
  name: string;
  description?: string;
  enabled: boolean;
  /** Offered to customer users; sent only with a HAND_ACT trigger, the only kind they run. */
  forCustomers?: boolean;
  schedule: ScheduleValues;
  triggers: TriggerValues[];
  conditions: ComparisonValues[];
  actions: ActionValues[];
}

/** What the editor opens with: a scene to edit, or values of a new one. */
export interface EditorTarget {
  scene?: Scene;
  values: SceneValues;
}

export const WEEKDAYS = [1, 2, 3, 4, 5, 6, 7] as const;
const DEFAULT_START = '08:00';
const DEFAULT_END = '18:00';

/** A CUSTOM schedule's week: one window per weekday, working days on. */
export function defaultCustomItems(): CustomScheduleItem[] {
  return WEEKDAYS.map((weekday) => ({ weekday, enabled: weekday <= 5, startTime: DEFAULT_START, endTime: DEFAULT_END }));
}

export function emptyTrigger(type: TriggerType = 'DEVICE_TRIGGER', timeZone = 'UTC'): TriggerValues {
  switch (type) {
    case 'DEVICE_TRIGGER':
      return { type, deviceTriggerType: 'TIME_SERIES', allDevices: true, deviceIds: [], conditionType: 'SIMPLE', operation: 'GREATER', valueType: 'NUMERIC', clear: { enabled: false } };
    case 'SCHEDULE_TRIGGER':
      return { type, cron: '0 0 8 * * *', timeZone, clear: { enabled: false } };
    default:
      return { type, clear: { enabled: false } };
  }
}

export function emptyAction(type: Action['type'] = 'MSG_NOTIFY'): ActionValues {
  return type === 'MSG_NOTIFY' ? { type, severity: 'CRITICAL', alarmType: '' } : { type, commandType: 'SERVICE', params: {} };
}

export function emptyScene(timeZone: string): SceneValues {
  return {
    name: '',
    enabled: true,
    schedule: { scheduleType: 'ANY_TIME', timeZone },
    triggers: [emptyTrigger('DEVICE_TRIGGER', timeZone)],
    conditions: [],
    actions: [emptyAction('MSG_NOTIFY')],
  };
}

function comparisonValues(c: Condition): ComparisonValues {
  return {
    deviceProfileId: c.deviceProfileId,
    allDevices: c.deviceIds.length === 0,
    deviceIds: c.deviceIds,
    key: c.key,
    operation: c.operation,
    valueType: c.valueType,
    value: c.value,
    ignoreCase: c.ignoreCase,
  };
}

function triggerValues(trigger: Trigger, clear: Condition | null): TriggerValues {
  const clearValues: ClearValues = clear ? { enabled: true, ...comparisonValues(clear) } : { enabled: false };
  if (trigger.type !== 'DEVICE_TRIGGER') return { ...trigger, clear: clearValues };
  return {
    ...trigger,
    allDevices: trigger.deviceIds.length === 0,
    clear: clearValues,
  };
}

/** A DEVICE_OUT's content read back into the editor's inputs (services, a single property). */
function actionValues(action: Action, deviceProfileOf: (deviceId: string) => string | undefined): ActionValues {
  if (action.type === 'MSG_NOTIFY') return { ...action };
  const text = typeof action.content === 'string' ? action.content : JSON.stringify(action.content);
  const base: ActionValues = { type: 'DEVICE_OUT', deviceId: action.deviceId, deviceProfileId: deviceProfileOf(action.deviceId), commandType: action.commandType };
  const parsed = parseJson(text);
  const obj = parsed.ok && parsed.value && typeof parsed.value === 'object' && !Array.isArray(parsed.value) ? (parsed.value as Record<string, unknown>) : null;
  if (action.commandType === 'SERVICE' && obj && typeof obj.method === 'string') {
    const params = (obj.params ?? {}) as Record<string, unknown>;
    return { ...base, service: obj.method, params: Object.fromEntries(Object.entries(params).map(([k, v]) => [k, inputOf(v)])) };
  }
  if (action.commandType === 'ATTRIBUTE' && obj && Object.keys(obj).length === 1) {
    const [property, value] = Object.entries(obj)[0]!;
    return { ...base, property, propertyValue: inputOf(value) };
  }
  return { ...base, content: text };
}

/** A wire value as a typed input holds it (a bool as '0'/'1', a STRUCT as its members' inputs). */
function inputOf(value: unknown): ParamInput {
  if (typeof value === 'boolean') return value ? '1' : '0';
  if (typeof value === 'number' || typeof value === 'string') return value;
  if (value === null || value === undefined) return undefined;
  if (typeof value === 'object' && !Array.isArray(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, inputOf(v)]));
  return JSON.stringify(value, null, 2);
}

/** The editor's values of a saved scene; `deviceProfileOf` names each commanded device's product. */
export function sceneValues(scene: Scene, deviceProfileOf: (deviceId: string) => string | undefined = () => undefined): SceneValues {
  const schedule: ScheduleValues =
    scene.schedule.scheduleType === 'ANY_TIME' ? { scheduleType: 'ANY_TIME' } : { ...scene.schedule };
  return {
    name: scene.name,
    description: scene.description ?? undefined,
    enabled: scene.enabled,
    forCustomers: scene.forCustomers,
    schedule,
    triggers: scene.triggers.map((t, i) => triggerValues(t, scene.clearRules[i] ?? null)),
    conditions: scene.conditions.map(comparisonValues),
    actions: scene.actions.map((a) => actionValues(a, deviceProfileOf)),
  };
}

function deviceIdsOf(v: ComparisonValues): string[] {
  return v.allDevices ? [] : (v.deviceIds ?? []);
}

function conditionOf(v: ComparisonValues): Condition {
  return {
    deviceProfileId: v.deviceProfileId ?? '',
    deviceIds: deviceIdsOf(v),
    key: v.key ?? '',
    operation: v.operation ?? 'EQUAL',
    valueType: v.valueType ?? 'NUMERIC',
    value: v.value ?? '',
    ...(v.valueType === 'STRING' && v.ignoreCase ? { ignoreCase: true } : {}),
  };
}

function triggerOf(v: TriggerValues): Trigger {
  switch (v.type) {
    case 'SCHEDULE_TRIGGER':
      return { type: 'SCHEDULE_TRIGGER', cron: (v.cron ?? '').trim(), timeZone: (v.timeZone ?? '').trim() };
    case 'SCENE_TRIGGER':
      return { type: 'SCENE_TRIGGER', sceneId: v.sceneId ?? '' };
    case 'HAND_ACT':
      return { type: 'HAND_ACT' };
    case 'DEVICE_TRIGGER': {
      const event = v.deviceTriggerType === 'DEVICE_EVENT';
      // An event without a compared parameter fires on each report: no comparison is sent.
      const compared = !event || Boolean(v.param);
      return {
        type: 'DEVICE_TRIGGER',
        deviceTriggerType: v.deviceTriggerType ?? 'TIME_SERIES',
        deviceProfileId: v.deviceProfileId ?? '',
        deviceIds: deviceIdsOf(v),
        key: v.key ?? '',
        ...(event && v.param ? { param: v.param } : {}),
        ...(compared
          ? {
              operation: v.operation ?? 'EQUAL',
              valueType: v.valueType ?? 'NUMERIC',
              value: v.value ?? '',
              ...(v.valueType === 'STRING' && v.ignoreCase ? { ignoreCase: true } : {}),
            }
          : {}),
        conditionType: v.conditionType ?? 'SIMPLE',
        ...(v.conditionType === 'DURATION' ? { duration: { value: v.duration?.value ?? 0, unit: v.duration?.unit ?? 'SECONDS' } } : {}),
        ...(v.conditionType === 'REPEATING' ? { repeat: v.repeat ?? 0 } : {}),
      };
    }
  }
}

/** The wire content of a DEVICE_OUT from its typed inputs; `model` is the device's published model. */
export function deviceOutContent(v: ActionValues, model: Pick<ThingModelTsl, 'services' | 'properties'> | null): string {
  if (v.commandType === 'SERVICE') {
    const service = model?.services.find((s) => s.identifier === v.service);
    return serviceContent(v.service ?? '', service?.functionJson.inputData ?? [], v.params ?? {});
  }
  if (v.commandType === 'ATTRIBUTE' && v.property) {
    const property = model?.properties.find((p) => p.identifier === v.property);
    const value = property ? paramValue(property.functionJson.dataType, v.propertyValue) : v.propertyValue;
    return JSON.stringify({ [v.property]: value });
  }
  return (v.content ?? '').trim();
}

function actionOf(v: ActionValues, modelOf: (deviceProfileId: string | undefined) => ThingModelTsl | null): Action {
  if (v.type === 'MSG_NOTIFY') {
    const message = v.message?.trim();
    return { type: 'MSG_NOTIFY', severity: v.severity ?? 'CRITICAL', alarmType: (v.alarmType ?? '').trim(), ...(message ? { message } : {}) };
  }
  return { type: 'DEVICE_OUT', deviceId: v.deviceId ?? '', commandType: v.commandType ?? 'SERVICE', content: deviceOutContent(v, modelOf(v.deviceProfileId)) };
}

function scheduleOf(v: ScheduleValues): Schedule {
  const timeZone = (v.timeZone ?? '').trim();
  switch (v.scheduleType) {
    case 'SPECIFIC_TIME':
      return {
        scheduleType: 'SPECIFIC_TIME',
        timeZone,
        weekdays: [...(v.weekdays ?? [])].sort((a, b) => a - b),
        startTime: v.startTime ?? '',
        endTime: v.endTime ?? '',
      };
    case 'CUSTOM':
      return { scheduleType: 'CUSTOM', timeZone, items: v.items ?? [] };
    default:
      return { scheduleType: 'ANY_TIME' };
  }
}

/** The scene body of the editor's values; `modelOf` gives a product's published model (DEVICE_OUT content). */
export function sceneBody(v: Partial<SceneValues>, modelOf: (deviceProfileId: string | undefined) => ThingModelTsl | null = () => null): SceneCreateBody {
  // A form hands over only the fields on show: an empty list or an untouched part may be absent.
  const triggers = v.triggers ?? [];
  const description = v.description?.trim();
  return {
    name: (v.name ?? '').trim(),
    description: description ? description : null,
    enabled: v.enabled ?? true,
    forCustomers: Boolean(v.forCustomers) && triggers.some((t) => t.type === 'HAND_ACT'),
    schedule: scheduleOf(v.schedule ?? { scheduleType: 'ANY_TIME' }),
    triggers: triggers.map(triggerOf),
    conditions: (v.conditions ?? []).map(conditionOf),
    actions: (v.actions ?? []).map((a) => actionOf(a, modelOf)),
    clearRules: triggers.map((t) => (t.clear?.enabled ? conditionOf(t.clear) : null)),
  };
}

/** The comparison value type that fits a thing-model data type (ENUM values are numbers). */
export function valueTypeOf(dataType: DataType | undefined): TriggerValueType {
  switch (dataType?.type) {
    case 'BOOL':
      return 'BOOLEAN';
    case 'TEXT':
    case 'STRUCT':
      return 'STRING';
    default:
      return 'NUMERIC';
  }
}
