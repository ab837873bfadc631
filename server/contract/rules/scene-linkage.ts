/**
 * The checks of a scene (server/contract/scene-linkage.ts) that the server runs when saving and the
 * console's editor runs as the user types. Pure: whatever they need to know about products, devices
 * and other scenes comes through SceneCheckContext. Each violation names the field by its path in
 * the body (`triggers.0.value`) and the errors.json key saying why.
 */
import type { DataType, ThingModelParam } from '../thing-model.ts';
import type { Condition, DeviceTrigger, Schedule, SceneCreateBody, SceneValue, TriggerOperation, TriggerValueType } from '../scene-linkage.ts';
import { DURATION_MAX_MS, REPEAT_MAX, REPEAT_MIN, SCENE_VALUE_TEXT_MAX, operationsByValueType, timeUnitMs } from '../scene-linkage.ts';
import { problem, type Problem } from './problem.ts';

/** What a scene check needs to know about one published thing model item. */
export interface SceneModelItem {
  identifier: string;
  functionType: 'properties' | 'services' | 'events';
  dataType?: DataType;
  outputData?: readonly ThingModelParam[];
}

export interface SceneCheckContext {
  /**
   * The published items of a product's thing model: undefined when the product does not exist,
   * an empty list when nothing is published.
   */
  modelOf(deviceProfileId: string): readonly SceneModelItem[] | undefined;
  /** The product of a device; undefined when the device does not exist. Without it devices are not checked. */
  productOfDevice?(deviceId: string): string | undefined;
  /** Which scenes a scene triggers on (its SCENE_TRIGGER ids); undefined when the scene does not exist. */
  sceneTriggersOf?(sceneId: string): readonly string[] | undefined;
  /**
   * The next `count` run times (epoch ms) of a cron expression in a time zone; null when croner
   * refuses the expression. Passed in because the contract loads no package but typebox (the server
   * and the console each call croner: `new Cron(cron, { timezone, paused: true }).nextRuns(count)`).
   */
  cronNextRuns(cron: string, timeZone: string, count: number): number[] | null;
}

export interface SceneViolation extends Problem {
  field: string;
}

/** Whether `timeZone` is an IANA zone this runtime knows. */
export function timeZoneProblem(timeZone: string): Problem | null {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
    return null;
  } catch {
    return problem('error.scene.timeZoneInvalid');
  }
}

/** A cron expression croner accepts and that runs at least once more. */
export function cronProblem(cron: string, ctx: Pick<SceneCheckContext, 'cronNextRuns'>): Problem | null {
  const runs = ctx.cronNextRuns(cron, 'UTC', 1);
  return runs === null || runs.length === 0 ? problem('error.scene.cronInvalid') : null;
}

/** Whether a `DATE_TIME` value is usable: epoch ms, or text `Date.parse` reads. Returns the epoch ms. */
export function dateTimeMs(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'string' && value.trim() !== '') {
    const ms = Date.parse(value);
    return Number.isNaN(ms) ? undefined : ms;
  }
  return undefined;
}

/** Which value types can compare an item of each data type (STRUCT: none). */
export const valueTypesByDataType: Readonly<Record<DataType['type'], readonly TriggerValueType[]>> = {
  INT: ['NUMERIC', 'DATE_TIME'],
  DOUBLE: ['NUMERIC', 'DATE_TIME'],
  ENUM: ['NUMERIC'],
  BOOL: ['BOOLEAN'],
  TEXT: ['STRING', 'DATE_TIME'],
  STRUCT: [],
};

/** A compared value against its value type and, when known, the item's data type (range, enum items). */
export function sceneValueProblem(valueType: TriggerValueType, value: SceneValue | undefined, dataType?: DataType): Problem | null {
  if (value === undefined || value === null || value === '') return problem('error.field.required');
  if (typeof value === 'object') return problem('error.scene.valueInvalid', { valueType });
  if (dataType && !valueTypesByDataType[dataType.type].includes(valueType)) {
    return problem('error.scene.valueTypeMismatch', { valueType, dataType: dataType.type });
  }
  switch (valueType) {
    case 'NUMERIC': {
      if (typeof value !== 'number' || !Number.isFinite(value)) return problem('error.scene.valueInvalid', { valueType });
      if (dataType?.type === 'INT' || dataType?.type === 'DOUBLE') {
        const { min, max } = dataType.specs;
        if (value < min || value > max) return problem('error.scene.valueOutOfRange', { min, max });
      }
      if (dataType?.type === 'ENUM' && !dataType.specs.some((item) => item.value === value)) return problem('error.scene.valueNotInEnum');
      return null;
    }
    case 'BOOLEAN':
      return typeof value === 'boolean' ? null : problem('error.scene.valueInvalid', { valueType });
    case 'STRING':
      return typeof value === 'string' && value.length <= SCENE_VALUE_TEXT_MAX ? null : problem('error.scene.valueInvalid', { valueType });
    case 'DATE_TIME':
      return dateTimeMs(value) === undefined ? problem('error.scene.valueInvalid', { valueType }) : null;
  }
}

function operationProblem(operation: TriggerOperation, valueType: TriggerValueType): Problem | null {
  return operationsByValueType[valueType].includes(operation) ? null : problem('error.scene.operationNotForType', { operation, valueType });
}

type Comparison = Pick<DeviceTrigger, 'deviceProfileId' | 'deviceIds' | 'key' | 'operation' | 'valueType' | 'value'>;

/**
 * A comparison on a product's item: the product and its devices exist, the key is a published item
 * of `functionType` (for events, `param` an output parameter), operation and value fit the type.
 */
function comparisonViolations(
  at: string,
  c: Comparison,
  ctx: SceneCheckContext,
  functionType: 'properties' | 'events',
  param?: string,
): SceneViolation[] {
  const out: SceneViolation[] = [];
  const add = (field: string, p: Problem | null): void => {
    if (p) out.push({ field: `${at}.${field}`, ...p });
  };
  const model = ctx.modelOf(c.deviceProfileId);
  if (model === undefined) {
    add('deviceProfileId', problem('error.scene.productNotFound'));
    return out;
  }
  if (ctx.productOfDevice) {
    c.deviceIds.forEach((id, i) => {
      const product = ctx.productOfDevice?.(id);
      if (product === undefined) add(`deviceIds.${i}`, problem('error.scene.deviceNotFound'));
      else if (product !== c.deviceProfileId) add(`deviceIds.${i}`, problem('error.scene.deviceNotOfProduct'));
    });
  }
  if (model.length === 0) {
    add('deviceProfileId', problem('error.scene.noPublishedModel'));
    return out;
  }
  const item = model.find((m) => m.functionType === functionType && m.identifier === c.key);
  if (!item) {
    add('key', problem(functionType === 'events' ? 'error.scene.eventNotInModel' : 'error.scene.keyNotInModel', { key: c.key }));
    return out;
  }
  let dataType = item.dataType;
  if (functionType === 'events') {
    if (param === undefined) return out;
    const output = item.outputData?.find((o) => o.identifier === param);
    if (!output) {
      add('param', problem('error.scene.paramNotInEvent', { key: param }));
      return out;
    }
    dataType = output.dataType;
  }
  if (!c.operation) add('operation', problem('error.field.required'));
  if (!c.valueType) add('valueType', problem('error.field.required'));
  if (!c.operation || !c.valueType) return out;
  add('operation', operationProblem(c.operation, c.valueType));
  add('value', sceneValueProblem(c.valueType, c.value, dataType));
  return out;
}

function deviceTriggerViolations(at: string, t: DeviceTrigger, ctx: SceneCheckContext): SceneViolation[] {
  const out =
    t.deviceTriggerType === 'DEVICE_EVENT'
      ? comparisonViolations(at, t, ctx, 'events', t.param)
      : comparisonViolations(at, t, ctx, 'properties');
  if (t.value !== undefined && (t.value === null || typeof t.value === 'object')) {
    out.push({ field: `${at}.value`, ...problem('error.scene.valueInvalid', { valueType: t.valueType ?? 'STRING' }) });
  }
  if (t.conditionType === 'DURATION') {
    if (!t.duration) out.push({ field: `${at}.duration`, ...problem('error.scene.durationRequired') });
    else if (t.duration.value * timeUnitMs[t.duration.unit] > DURATION_MAX_MS) {
      out.push({ field: `${at}.duration.value`, ...problem('error.scene.durationTooLong') });
    }
  }
  if (t.conditionType === 'REPEATING' && t.repeat === undefined) {
    out.push({ field: `${at}.repeat`, ...problem('error.scene.repeatRequired', { min: REPEAT_MIN, max: REPEAT_MAX }) });
  }
  return out;
}

export function scheduleViolations(schedule: Schedule | undefined, at = 'schedule'): SceneViolation[] {
  if (!schedule || schedule.scheduleType === 'ANY_TIME') return [];
  const out: SceneViolation[] = [];
  const zone = timeZoneProblem(schedule.timeZone);
  if (zone) out.push({ field: `${at}.timeZone`, ...zone });
  const weekdays = schedule.scheduleType === 'SPECIFIC_TIME' ? schedule.weekdays : schedule.items.map((i) => i.weekday);
  const field = schedule.scheduleType === 'SPECIFIC_TIME' ? (i: number) => `${at}.weekdays.${i}` : (i: number) => `${at}.items.${i}.weekday`;
  weekdays.forEach((day, i) => {
    if (weekdays.indexOf(day) < i) out.push({ field: field(i), ...problem('error.scene.weekdayRepeated') });
  });
  return out;
}

/**
 * The chain of scene ids from `sceneId` back to itself through SCENE_TRIGGERs, if saving `sceneId`
 * with `triggerIds` closes one; null when no cycle. A new scene (no id yet) cannot close a cycle.
 */
export function findSceneCycle(sceneId: string | undefined, triggerIds: readonly string[], ctx: SceneCheckContext): string[] | null {
  if (sceneId === undefined) return null;
  const seen = new Set<string>();
  const walk = (id: string, path: string[]): string[] | null => {
    if (id === sceneId) return [...path, id];
    if (seen.has(id)) return null;
    seen.add(id);
    for (const next of ctx.sceneTriggersOf?.(id) ?? []) {
      const found = walk(next, [...path, id]);
      if (found) return found;
    }
    return null;
  };
  for (const id of triggerIds) {
    const found = walk(id, [sceneId]);
    if (found) return found;
  }
  return null;
}

/** Every violation of a scene body; `sceneId` is the id of the scene being updated (none for a create). */
export function sceneViolations(scene: SceneCreateBody, ctx: SceneCheckContext, sceneId?: string): SceneViolation[] {
  const out: SceneViolation[] = [];
  if (scene.triggers.length === 0) out.push({ field: 'triggers', ...problem('error.scene.triggersEmpty') });
  if (scene.clearRules.length !== scene.triggers.length) out.push({ field: 'clearRules', ...problem('error.scene.clearRulesMismatch') });
  scene.triggers.forEach((t, i) => {
    const at = `triggers.${i}`;
    switch (t.type) {
      case 'DEVICE_TRIGGER':
        out.push(...deviceTriggerViolations(at, t, ctx));
        break;
      case 'SCHEDULE_TRIGGER': {
        const zone = timeZoneProblem(t.timeZone);
        if (zone) out.push({ field: `${at}.timeZone`, ...zone });
        const cron = cronProblem(t.cron, ctx);
        if (cron) out.push({ field: `${at}.cron`, ...cron });
        break;
      }
      case 'SCENE_TRIGGER':
        if (t.sceneId === sceneId) out.push({ field: `${at}.sceneId`, ...problem('error.scene.cycle') });
        else if (ctx.sceneTriggersOf && ctx.sceneTriggersOf(t.sceneId) === undefined) {
          out.push({ field: `${at}.sceneId`, ...problem('error.scene.sceneNotFound') });
        } else if (findSceneCycle(sceneId, [t.sceneId], ctx)) out.push({ field: `${at}.sceneId`, ...problem('error.scene.cycle') });
        break;
      case 'HAND_ACT':
        break;
    }
  });
  scene.conditions.forEach((c, i) => out.push(...conditionViolations(`conditions.${i}`, c, ctx)));
  scene.clearRules.forEach((c, i) => {
    if (c) out.push(...conditionViolations(`clearRules.${i}`, c, ctx));
  });
  scene.actions.forEach((a, i) => {
    if (a.type === 'DEVICE_OUT' && ctx.productOfDevice && ctx.productOfDevice(a.deviceId) === undefined) {
      out.push({ field: `actions.${i}.deviceId`, ...problem('error.scene.deviceNotFound') });
    }
  });
  out.push(...scheduleViolations(scene.schedule));
  return out;
}

function conditionViolations(at: string, c: Condition, ctx: SceneCheckContext): SceneViolation[] {
  return comparisonViolations(at, c, ctx, 'properties');
}
