/**
 * The rule engine: runs enabled scenes (server/contract/scene-linkage.ts) on stored telemetry,
 * reported events, cron schedules, other scenes and the execute call.
 *
 * Cost per message: telemetry arrives after its batch committed (`telemetry.stored`); a product
 * that no rule names is one Set lookup, and each entry one Map lookup by (product, key) and then
 * one by device, so rules that do not name a key, or name other devices, cost nothing for it.
 *
 * State (SIMPLE's last truth, DURATION timers, REPEATING counts) lives in memory per (scene,
 * trigger, device): after a restart it starts again from the first value that arrives (README).
 * A failing action is written to the scene's log; it never stops the other actions or the engine.
 */
import { Cron } from 'croner';
import type { FastifyBaseLogger } from 'fastify';
import type { Alarm } from '../../contract/alarm.ts';
import type { CommandBody, CommandSource } from '../../contract/command.ts';
import type { Device } from '../../contract/device.ts';
import { ErrorCode } from '../../contract/errors.ts';
import type { TelemetryEntry } from '../../contract/telemetry.ts';
import type {
  ActionResult,
  Condition,
  ConditionType,
  DeviceTrigger,
  Scene,
  SceneLogEntry,
  SceneValue,
  Schedule,
  TriggerOperation,
  TriggerType,
  TriggerValueType,
} from '../../contract/scene-linkage.ts';
import { timeUnitMs } from '../../contract/scene-linkage.ts';
import { AppError } from '../../lib/app-error.ts';
import type { EventBus } from '../../lib/event-bus.ts';
import { notFound } from '../../lib/field-errors.ts';
import { newId } from '../../lib/ids.ts';
import type { AlarmService } from '../alarm/alarm-service.ts';
import type { NotificationService } from '../notification/notification-service.ts';
import type { SceneRulePart, SceneService } from '../scene-linkage/scene-service.ts';
import { compareValue } from './compare.ts';
import { inSchedule } from './schedule-window.ts';

export interface RuleEngineDeps {
  bus: EventBus;
  log: FastifyBaseLogger;
  scenes: Pick<SceneService, 'forEachEnabledRule' | 'releaseCache' | 'find' | 'log'>;
  alarms: Pick<AlarmService, 'raise' | 'clearRaisedBy' | 'search'>;
  notifications: Pick<NotificationService, 'notify'>;
  /** Who is told of an alarm of a device of `organizationId` (organization scoping); none: everyone. */
  recipientsOf?: (organizationId: string | null) => readonly string[];
  commands: { send(deviceId: string, body: CommandBody, source: CommandSource): Promise<{ id: string }> };
  devices: { get(id: string): Device; page(query: { page: number; pageSize: number; deviceProfileId?: string }): { items: Device[] } };
  /** Latest value of each of `keys` of a device. */
  latest(deviceId: string, keys: readonly string[]): Record<string, unknown>;
  now?: () => number;
}

/**
 * What the engine holds of an enabled scene: its id and schedule (checked before every run) and
 * what its triggers and clear rules compile to. Its name, conditions and actions are read from the
 * table by id when it fires (`run`): a firing is rare next to the messages the watches look at, and
 * a thousand scenes held whole cost the idle gateway megabytes (docs/PERFORMANCE-FINDINGS.md).
 */
interface Rule {
  id: string;
  /** Null: ANY_TIME. */
  schedule: Schedule | null;
  /** Its DEVICE_TRIGGERs and clear rules, as indexed under (product, key or event). */
  watches: readonly Watch[];
  /** Its SCENE_TRIGGERs: the scene each waits for. */
  chainedOn: readonly { sceneId: string; index: number }[];
  /** Its SCHEDULE_TRIGGERs. */
  crons: readonly { index: number; cron: string; timeZone: string }[];
}

/** A device trigger or clear rule of a rule, as indexed under (product, key). */
interface Watch {
  rule: Rule;
  index: number;
  kind: 'trigger' | 'clear';
  /** DEVICE_EVENT triggers are indexed by event identifier, the others by telemetry key. */
  onEvent: boolean;
  product: string;
  /** Telemetry key or event identifier. */
  key: string;
  /** None: every device of the product. */
  deviceIds: readonly string[];
  /** DEVICE_EVENT: the output parameter compared (null: the whole report, compared only if a test is set). */
  param: string | null;
  /** The comparison; null when the trigger has none (a DEVICE_EVENT without `param` fires on every report). */
  operation: TriggerOperation | null;
  valueType: TriggerValueType | null;
  value: SceneValue | null;
  ignoreCase: boolean;
  conditionType: ConditionType;
  durationMs: number;
  repeat: number;
  /** Triggers: state per device, made on the first true value (the engine's map for this scene and trigger, kept across rebuilds). */
  states: Map<string, TriggerState> | undefined;
}

/** The watches of one (product, key): those on every device of the product, and those naming devices. */
interface KeyWatches {
  anyDevice: Watch[];
  byDevice: Map<string, Watch[]>;
}

const noWatches: readonly Watch[] = [];
const none: readonly never[] = [];

function watchesFor(entry: KeyWatches, deviceId: string): [readonly Watch[], readonly Watch[]] {
  return [entry.anyDevice, entry.byDevice.get(deviceId) ?? noWatches];
}

/**
 * One copy of each string: the scenes of a load name the same products, keys, devices and enum
 * values, and each parsed row would otherwise hold its own copy of them.
 */
type Intern = (text: string) => string;

function interner(): Intern {
  const seen = new Map<string, string>();
  return (text) => {
    const known = seen.get(text);
    if (known !== undefined) return known;
    seen.set(text, text);
    return text;
  };
}

const noIntern: Intern = (text) => text;

/** What the engine keeps of a scene's id, schedule, triggers and clear rules. */
function ruleOf(scene: SceneRulePart, intern: Intern): Rule {
  const watches: Watch[] = [];
  const chainedOn: Rule['chainedOn'][number][] = [];
  const crons: Rule['crons'][number][] = [];
  const rule: Rule = { id: scene.id, schedule: scene.schedule.scheduleType === 'ANY_TIME' ? null : scene.schedule, watches, chainedOn, crons };
  const watch = (index: number, kind: Watch['kind'], c: Condition | DeviceTrigger, trigger: DeviceTrigger | null): Watch => ({
    rule,
    index,
    kind,
    onEvent: trigger?.deviceTriggerType === 'DEVICE_EVENT',
    product: intern(c.deviceProfileId),
    key: intern(c.key),
    deviceIds: c.deviceIds.length ? [...new Set(c.deviceIds)].map(intern) : none,
    param: trigger?.param === undefined ? null : intern(trigger.param),
    operation: c.operation ? (intern(c.operation) as TriggerOperation) : null,
    valueType: c.valueType ? (intern(c.valueType) as TriggerValueType) : null,
    value: c.value === undefined ? null : typeof c.value === 'string' ? intern(c.value) : c.value,
    ignoreCase: c.ignoreCase === true,
    conditionType: trigger ? (intern(trigger.conditionType) as ConditionType) : 'SIMPLE',
    durationMs: trigger?.duration ? trigger.duration.value * timeUnitMs[trigger.duration.unit] : 0,
    repeat: trigger?.repeat ?? 1,
    states: undefined,
  });
  scene.triggers.forEach((t, index) => {
    if (t.type === 'DEVICE_TRIGGER') watches.push(watch(index, 'trigger', t, t));
    else if (t.type === 'SCENE_TRIGGER') chainedOn.push({ sceneId: intern(t.sceneId), index });
    else if (t.type === 'SCHEDULE_TRIGGER') crons.push({ index, cron: t.cron, timeZone: intern(t.timeZone) });
  });
  scene.clearRules.forEach((c, index) => {
    if (c) watches.push(watch(index, 'clear', c, null));
  });
  if (!chainedOn.length) rule.chainedOn = none;
  if (!crons.length) rule.crons = none;
  return rule;
}

/** What fired a scene. */
interface Firing {
  triggerIndex: number | null;
  triggerType: TriggerType;
  device: Device | null;
  key: string | null;
  operation: string | null;
  threshold: unknown;
  value: unknown;
}

/** Per (scene, trigger, device): SIMPLE's last truth, a DURATION timer, a REPEATING count. */
interface TriggerState {
  last: boolean;
  count: number;
  timer: NodeJS.Timeout | null;
}

/** SCENE_TRIGGER chains stop this deep (saving refuses cycles; this guards what was stored before). */
const MAX_CHAIN_DEPTH = 16;

const isOpen = (alarm: Alarm): boolean => alarm.status === 'ACTIVE_UNACK' || alarm.status === 'ACTIVE_ACK';
const keyOf = (a: string, b: string): string => `${a}\u0000${b}`;
/** The `open` set's key of (scene, trigger index, device); the device is '' for alarms raised without one. */
const openKey = (sceneId: string, index: number, deviceId: string): string => `${sceneId}\u0000${index}\u0000${deviceId}`;

export class RuleEngine {
  private readonly enabled = new Map<string, Rule>();
  /** (product, telemetry key) → triggers and clear rules. */
  private readonly byKey = new Map<string, KeyWatches>();
  /** (product, event identifier) → DEVICE_EVENT triggers. */
  private readonly byEvent = new Map<string, KeyWatches>();
  /** Products some rule watches: the first check of every message. */
  private readonly products = new Set<string>();
  /** Scene id → the scenes (and trigger index) that fire when it fires. */
  private readonly chained = new Map<string, { rule: Rule; index: number }[]>();
  private readonly crons = new Map<string, Cron[]>();
  /** Scene id → trigger index → device id → state. */
  private readonly states = new Map<string, Map<number, Map<string, TriggerState>>>();
  /** Open alarms by (scene, trigger, device): a clear rule reads the table only when one is open. */
  private readonly open = new Set<string>();
  private readonly offs: (() => void)[] = [];
  private readonly now: () => number;

  constructor(private readonly deps: RuleEngineDeps) {
    // Read at each call, not captured: a test that moves the clock (vi.setSystemTime) moves ours too.
    this.now = deps.now ?? (() => Date.now());
  }

  /** Loads enabled scenes and open alarms, and follows telemetry, events, scene and alarm changes. */
  start(): void {
    const intern = interner();
    this.deps.scenes.forEachEnabledRule((scene) => this.enabled.set(scene.id, ruleOf(scene, intern)));
    this.deps.scenes.releaseCache();
    this.rebuild();
    for (let page = 1; ; page++) {
      const { items } = this.deps.alarms.search({ statuses: ['ACTIVE_UNACK', 'ACTIVE_ACK'] }, page, 100);
      for (const alarm of items) this.trackOpen(alarm);
      if (items.length < 100) break;
    }
    const { bus } = this.deps;
    this.offs.push(
      bus.on('telemetry.stored', ({ deviceId, deviceProfileId, entries }) => this.onTelemetry(deviceId, deviceProfileId, entries)),
      bus.on('device.eventReported', ({ deviceId, identifier, params }) => this.onEvent(deviceId, identifier, params)),
      bus.on('scene.changed', ({ id, scene }) => this.onSceneChanged(id, scene)),
      bus.on('alarm.changed', ({ alarm, previous }) => {
        this.trackOpen(alarm);
        if (previous && isOpen(previous) && !isOpen(alarm)) this.rearm(alarm);
      }),
    );
  }

  close(): void {
    for (const off of this.offs.splice(0)) off();
    this.stopCrons();
    for (const id of [...this.states.keys()]) this.forgetStates(id);
  }

  /** Cancels a scene's timers and forgets its counts (it changed, went or the engine stops). */
  private forgetStates(sceneId: string): void {
    for (const byDevice of this.states.get(sceneId)?.values() ?? []) {
      for (const state of byDevice.values()) if (state.timer) clearTimeout(state.timer);
    }
    this.states.delete(sceneId);
  }

  /** The state map of a scene's trigger, made when its first device holds a true value. */
  private statesOf(sceneId: string, index: number): Map<string, TriggerState> {
    let byTrigger = this.states.get(sceneId);
    if (!byTrigger) this.states.set(sceneId, (byTrigger = new Map()));
    let byDevice = byTrigger.get(index);
    if (!byDevice) byTrigger.set(index, (byDevice = new Map()));
    return byDevice;
  }

  /** The execute call: runs a scene now (its HAND_ACT trigger, if any, is named in the log). */
  async execute(sceneId: string): Promise<SceneLogEntry> {
    const scene = this.deps.scenes.find(sceneId);
    if (!scene) throw notFound();
    if (!inSchedule(scene.schedule, this.now())) throw new AppError(ErrorCode.BAD_REQUEST_PARAMS, 'error.scene.outsideSchedule');
    const index = scene.triggers.findIndex((t) => t.type === 'HAND_ACT');
    return this.run(scene, { triggerIndex: index < 0 ? null : index, triggerType: 'HAND_ACT', device: null, key: null, operation: null, threshold: null, value: null }, 0);
  }

  private onSceneChanged(id: string, scene: Scene | null): void {
    this.enabled.delete(id);
    this.forgetStates(id);
    if (scene?.enabled) this.enabled.set(id, ruleOf(scene, noIntern));
    this.rebuild();
  }

  private trackOpen(alarm: Alarm): void {
    const index = alarm.details.triggerIndex;
    if (index === null) return;
    const key = openKey(alarm.sceneLinkageId, index, alarm.deviceId ?? '');
    if (isOpen(alarm)) this.open.add(key);
    else this.open.delete(key);
  }

  /**
   * A cleared alarm whose condition still holds is raised again on the next message that satisfies
   * it (as ThingsBoard does): the trigger forgets that it already saw the value true, so a SIMPLE
   * trigger fires on the next true value and a DURATION trigger starts timing again. Without this
   * an operator's clear would silence the alarm until the value fell and rose again.
   */
  private rearm(alarm: Alarm): void {
    const index = alarm.details.triggerIndex;
    if (index === null || alarm.deviceId === null) return;
    const byDevice = this.states.get(alarm.sceneLinkageId)?.get(index);
    const state = byDevice?.get(alarm.deviceId);
    if (state && !state.timer) byDevice!.delete(alarm.deviceId);
  }

  /** Rebuilds the indexes and cron jobs from the enabled scenes (on start and after each scene change). */
  private rebuild(): void {
    this.byKey.clear();
    this.byEvent.clear();
    this.products.clear();
    this.chained.clear();
    this.stopCrons();
    const add = (watch: Watch): void => {
      const map = watch.onEvent ? this.byEvent : this.byKey;
      const k = keyOf(watch.product, watch.key);
      let entry = map.get(k);
      if (!entry) map.set(k, (entry = { anyDevice: [], byDevice: new Map() }));
      if (watch.deviceIds.length === 0) entry.anyDevice.push(watch);
      for (const id of watch.deviceIds) {
        const list = entry.byDevice.get(id);
        if (list) list.push(watch);
        else entry.byDevice.set(id, [watch]);
      }
      this.products.add(watch.product);
    };
    for (const rule of this.enabled.values()) {
      for (const watch of rule.watches) {
        if (watch.kind === 'trigger') watch.states = this.states.get(rule.id)?.get(watch.index);
        add(watch);
      }
      for (const { sceneId, index } of rule.chainedOn) {
        const list = this.chained.get(sceneId);
        if (list) list.push({ rule, index });
        else this.chained.set(sceneId, [{ rule, index }]);
      }
      for (const { index, cron, timeZone } of rule.crons) this.schedule(rule, index, cron, timeZone);
    }
  }

  private schedule(rule: Rule, index: number, cron: string, timeZone: string): void {
    try {
      const job = new Cron(
        cron,
        { timezone: timeZone, protect: true, catch: (err) => this.deps.log.error({ err, sceneId: rule.id }, 'scheduled scene failed') },
        () => this.fire(rule, { triggerIndex: index, triggerType: 'SCHEDULE_TRIGGER', device: null, key: null, operation: null, threshold: null, value: null }),
      );
      const jobs = this.crons.get(rule.id) ?? [];
      jobs.push(job);
      this.crons.set(rule.id, jobs);
    } catch (err) {
      // Saving checks the expression; one stored by an older version that croner refuses is skipped.
      this.deps.log.error({ err, sceneId: rule.id }, 'scene cron expression refused');
    }
  }

  private stopCrons(): void {
    for (const jobs of this.crons.values()) for (const job of jobs) job.stop();
    this.crons.clear();
  }

  private onTelemetry(deviceId: string, productId: string, entries: readonly TelemetryEntry[]): void {
    if (!this.products.has(productId)) return;
    for (const entry of entries) {
      const keyWatches = this.byKey.get(keyOf(productId, entry.key));
      if (!keyWatches) continue;
      for (const watches of watchesFor(keyWatches, deviceId)) {
        for (const watch of watches) {
          if (watch.kind === 'clear') this.checkClear(watch, deviceId, entry.value);
          else this.checkTrigger(watch, deviceId, entry.value);
        }
      }
    }
  }

  private onEvent(deviceId: string, identifier: string, params: unknown): void {
    if (this.products.size === 0) return;
    let productId: string;
    try {
      productId = this.deps.devices.get(deviceId).deviceProfileId;
    } catch {
      return;
    }
    const keyWatches = this.byEvent.get(keyOf(productId, identifier));
    if (!keyWatches) return;
    for (const watch of watchesFor(keyWatches, deviceId).flat()) {
      const { param } = watch;
      const value = param !== null && params !== null && typeof params === 'object' ? (params as Record<string, unknown>)[param] : params;
      if (param !== null && watch.operation && watch.valueType && watch.value !== null) {
        if (!compareValue(watch.operation, watch.valueType, value, watch.value, watch.ignoreCase)) continue;
      }
      this.fireOnDevice(watch, deviceId, value);
    }
  }

  private checkClear(watch: Watch, deviceId: string, value: unknown): void {
    if (!this.open.has(openKey(watch.rule.id, watch.index, deviceId))) return;
    if (!watch.operation || !watch.valueType || watch.value === null) return;
    if (!compareValue(watch.operation, watch.valueType, value, watch.value, watch.ignoreCase)) return;
    try {
      this.deps.alarms.clearRaisedBy(watch.rule.id, watch.index, deviceId);
    } catch (err) {
      this.deps.log.error({ err, sceneId: watch.rule.id }, 'clearing an alarm failed');
    }
  }

  private checkTrigger(watch: Watch, deviceId: string, value: unknown): void {
    if (!watch.operation || !watch.valueType || watch.value === null) return;
    const truth = compareValue(watch.operation, watch.valueType, value, watch.value, watch.ignoreCase);
    let state = watch.states?.get(deviceId);
    if (!state) {
      if (!truth) return; // nothing to remember for a false value on a fresh trigger
      state = { last: false, count: 0, timer: null };
      (watch.states ??= this.statesOf(watch.rule.id, watch.index)).set(deviceId, state);
    }
    const states = watch.states!;
    const was = state.last;
    state.last = truth;
    switch (watch.conditionType) {
      case 'SIMPLE':
        if (truth && !was) this.fireOnDevice(watch, deviceId, value);
        break;
      case 'DURATION':
        if (!truth) {
          if (state.timer) clearTimeout(state.timer);
          state.timer = null;
        } else if (!was) {
          const ms = watch.durationMs;
          const held = value;
          state.timer = setTimeout(() => {
            state.timer = null;
            this.fireOnDevice(watch, deviceId, held);
          }, ms);
        }
        break;
      case 'REPEATING':
        state.count = truth ? state.count + 1 : 0;
        if (state.count >= watch.repeat) {
          state.count = 0;
          this.fireOnDevice(watch, deviceId, value);
        }
        break;
    }
    if (!truth && !state.timer) states.delete(deviceId);
  }

  private fireOnDevice(watch: Watch, deviceId: string, value: unknown): void {
    let device: Device;
    try {
      device = this.deps.devices.get(deviceId);
    } catch {
      return; // deleted meanwhile
    }
    this.fire(watch.rule, {
      triggerIndex: watch.index,
      triggerType: 'DEVICE_TRIGGER',
      device,
      key: watch.param ? `${watch.key}.${watch.param}` : watch.key,
      operation: watch.operation,
      threshold: watch.value,
      value,
    });
  }

  /**
   * Runs a scene in the background (the caller is an event listener or a timer). The rule holds no
   * more than its id, schedule and triggers: the scene's conditions and actions are read here.
   */
  private fire(rule: Rule, firing: Firing, depth = 0): void {
    if (rule.schedule && !inSchedule(rule.schedule, this.now())) return;
    const ran = (async () => {
      const scene = this.deps.scenes.find(rule.id);
      if (scene) await this.run(scene, firing, depth);
    })();
    ran.catch((err: unknown) => this.deps.log.error({ err, sceneId: rule.id }, 'scene run failed'));
  }

  /** Conditions, then each action in order, then the log entry and the scenes chained on this one. */
  private async run(scene: Scene, firing: Firing, depth: number): Promise<SceneLogEntry> {
    const conditionsMet = this.conditionsHold(scene.conditions, firing.device);
    const actions: ActionResult[] = [];
    if (conditionsMet) {
      for (const [index, action] of scene.actions.entries()) {
        try {
          if (action.type === 'DEVICE_OUT') {
            const command = await this.deps.commands.send(action.deviceId, {
              commandType: action.commandType,
              callType: 'ASYNC',
              way: 'oneway',
              content: action.content,
            }, { type: 'SCENE_LINKAGE', id: scene.id, name: scene.name });
            actions.push({ index, type: action.type, outcome: 'SUCCESS', resultId: command.id, error: null });
          } else {
            const alarm = this.deps.alarms.raise({
              scene: { id: scene.id, name: scene.name },
              triggerIndex: firing.triggerIndex,
              device: firing.device,
              severity: action.severity,
              type: action.alarmType,
              details: {
                triggerIndex: firing.triggerIndex,
                key: firing.key,
                operation: firing.operation,
                threshold: firing.threshold,
                value: firing.value,
                message: action.message ?? null,
              },
            });
            this.deps.notifications.notify({
              userIds: this.deps.recipientsOf?.(firing.device?.organizationId ?? null),
              type: 'ALARM',
              subject: action.alarmType,
              text: action.message ?? null,
              info: {
                alarmId: alarm.id,
                severity: action.severity,
                deviceId: firing.device?.id ?? null,
                deviceName: firing.device?.name ?? null,
                sceneLinkageId: scene.id,
              },
            });
            actions.push({ index, type: action.type, outcome: 'SUCCESS', resultId: alarm.id, error: null });
          }
        } catch (err) {
          const error = err instanceof AppError ? err.key : err instanceof Error ? err.message : String(err);
          actions.push({ index, type: action.type, outcome: 'FAILED', resultId: null, error });
        }
      }
    }
    const entry: SceneLogEntry = {
      id: newId(),
      sceneLinkageId: scene.id,
      ts: this.now(),
      triggerIndex: firing.triggerIndex,
      triggerType: firing.triggerType,
      deviceId: firing.device?.id ?? null,
      value: firing.value === undefined ? null : firing.value,
      conditionsMet,
      actions,
    };
    try {
      this.deps.scenes.log(entry);
    } catch (err) {
      // The scene was deleted while it ran: nothing to log it under.
      this.deps.log.debug({ err, sceneId: scene.id }, 'scene log not written');
    }
    if (conditionsMet && depth < MAX_CHAIN_DEPTH) {
      for (const next of this.chained.get(scene.id) ?? []) {
        this.fire(next.rule, { ...firing, triggerIndex: next.index, triggerType: 'SCENE_TRIGGER' }, depth + 1);
      }
    }
    return entry;
  }

  /**
   * Every condition holds on the latest values. Devices compared: the ones named; with none named,
   * the device that fired (when it is of the condition's product), else any device of the product.
   */
  private conditionsHold(conditions: readonly Condition[], fired: Device | null): boolean {
    return conditions.every((c) => {
      const holds = (deviceId: string): boolean => {
        const value = this.deps.latest(deviceId, [c.key])[c.key];
        return value !== undefined && compareValue(c.operation, c.valueType, value, c.value, c.ignoreCase);
      };
      if (c.deviceIds.length > 0) return c.deviceIds.every(holds);
      if (fired && fired.deviceProfileId === c.deviceProfileId) return holds(fired.id);
      return this.deps.devices.page({ page: 1, pageSize: 100, deviceProfileId: c.deviceProfileId }).items.some((d) => holds(d.id));
    });
  }
}
