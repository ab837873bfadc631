import { describe, expect, it } from 'vitest';
import type { Scene, Trigger } from '../../server/contract/scene-linkage.ts';
import type { ThingModelTsl } from '../../server/contract/thing-model.ts';
import { deviceTasks } from '../../web/features/scene-linkage/deviceTasks.ts';
import { nextRuns } from '../../web/features/scene-linkage/nextRuns.ts';
import { formPathOf, sceneFormViolations } from '../../web/features/scene-linkage/sceneCheck.ts';
import { emptyScene, sceneBody, sceneValues, type SceneValues } from '../../web/features/scene-linkage/sceneForm.ts';
import { scenesTriggerSummary, triggerSummary, type SceneText } from '../../web/features/scene-linkage/triggerSummary.ts';

/** A translator that shows the key and its parameters, so the tests see what was asked for. */
const t: SceneText = (key, params) => (params ? `${key}(${Object.entries(params).map(([k, v]) => `${k}=${String(v)}`).join(',')})` : key);

const threshold: Trigger = {
  type: 'DEVICE_TRIGGER',
  deviceTriggerType: 'TIME_SERIES',
  deviceProfileId: 'p1',
  deviceIds: [],
  key: 'temperature',
  operation: 'GREATER',
  valueType: 'NUMERIC',
  value: 80,
  conditionType: 'SIMPLE',
};

const model = {
  properties: [
    { identifier: 'temperature', functionName: '温度', accessMode: 'r', functionJson: { dataType: { type: 'DOUBLE', specs: { min: -40, max: 125, unit: '°C' } } } },
    { identifier: 'power', functionName: '开关', accessMode: 'rw', functionJson: { dataType: { type: 'BOOL', specs: { '0': '关', '1': '开' } } } },
  ],
  services: [{ identifier: 'stop', functionName: '停止', callType: 'ASYNC', functionJson: { inputData: [{ identifier: 'force', functionName: '强制', dataType: { type: 'BOOL', specs: { '0': '否', '1': '是' } } }], outputData: [] } }],
  events: [],
} as unknown as ThingModelTsl;

describe('the trigger summary of the scene list', () => {
  it('writes a numeric threshold with its symbol', () => {
    expect(triggerSummary(threshold, t)).toBe('temperature > 80');
  });

  it('says how long a DURATION must hold and how often a REPEATING must be true', () => {
    expect(triggerSummary({ ...threshold, conditionType: 'DURATION', duration: { value: 30, unit: 'SECONDS' } }, t)).toBe(
      'summary.duration(comparison=temperature > 80,value=30,unit=timeUnit.SECONDS)',
    );
    expect(triggerSummary({ ...threshold, conditionType: 'REPEATING', repeat: 3 }, t)).toBe('summary.repeat(comparison=temperature > 80,count=3)');
  });

  it('names text operations in words and quotes text values', () => {
    expect(triggerSummary({ ...threshold, operation: 'CONTAINS', valueType: 'STRING', value: 'err' }, t)).toBe('temperature operation.CONTAINS "err"');
  });

  it('summarises an event without a compared parameter, a schedule, a scene by its name and a manual trigger', () => {
    expect(triggerSummary({ ...threshold, deviceTriggerType: 'DEVICE_EVENT', key: 'overheat', operation: undefined, value: undefined, valueType: undefined }, t)).toBe(
      'summary.event(key=overheat)',
    );
    expect(triggerSummary({ type: 'SCHEDULE_TRIGGER', cron: '0 0 8 * * *', timeZone: 'Asia/Shanghai' }, t)).toBe('summary.schedule(cron=0 0 8 * * *,timeZone=Asia/Shanghai)');
    expect(triggerSummary({ type: 'SCENE_TRIGGER', sceneId: 's1' }, t, (id) => (id === 's1' ? '锅炉' : undefined))).toBe('summary.scene(name=锅炉)');
    expect(scenesTriggerSummary([{ type: 'HAND_ACT' }, threshold], t)).toBe('summary.handsummary.ortemperature > 80');
  });
});

describe('the next runs shown under a cron expression', () => {
  it('are the next five times in the trigger’s time zone', () => {
    const from = new Date('2026-01-01T00:00:00Z');
    const result = nextRuns('0 0 8 * * *', 'Asia/Shanghai', from);
    // 08:00 in Shanghai is midnight UTC; the runs come after `from`.
    expect(result.ok && result.runs.map((d) => d.toISOString())).toEqual([
      '2026-01-02T00:00:00.000Z',
      '2026-01-03T00:00:00.000Z',
      '2026-01-04T00:00:00.000Z',
      '2026-01-05T00:00:00.000Z',
      '2026-01-06T00:00:00.000Z',
    ]);
  });

  it('say which part is wrong: the expression, the zone, or nothing typed yet', () => {
    expect(nextRuns('every minute', 'UTC')).toEqual({ ok: false, problem: 'cron' });
    expect(nextRuns('* * * * *', 'Mars/Olympus')).toEqual({ ok: false, problem: 'timeZone' });
    expect(nextRuns('  ', 'UTC')).toEqual({ ok: false, problem: 'empty' });
  });
});

describe('the editor values and the scene body', () => {
  const values: SceneValues = {
    ...emptyScene('UTC'),
    name: ' 锅炉高温 ',
    triggers: [{ ...threshold, allDevices: true, deviceIds: ['ignored'], clear: { enabled: true, deviceProfileId: 'p1', allDevices: true, key: 'temperature', operation: 'LESS', valueType: 'NUMERIC', value: 60 } }, { type: 'HAND_ACT', clear: { enabled: false } }],
    actions: [
      { type: 'MSG_NOTIFY', severity: 'CRITICAL', alarmType: '高温', message: '' },
      { type: 'DEVICE_OUT', deviceProfileId: 'p1', deviceId: 'd1', commandType: 'SERVICE', service: 'stop', params: { force: '1' } },
      { type: 'DEVICE_OUT', deviceProfileId: 'p1', deviceId: 'd1', commandType: 'ATTRIBUTE', property: 'power', propertyValue: '0' },
    ],
  };
  const body = sceneBody(values, () => model);

  it('pairs one clear rule with each trigger, null where it is off, and sends every device as an empty list', () => {
    expect(body.name).toBe('锅炉高温');
    expect(body.triggers[0]).toMatchObject({ deviceIds: [], key: 'temperature', value: 80 });
    expect(body.clearRules).toEqual([
      { deviceProfileId: 'p1', deviceIds: [], key: 'temperature', operation: 'LESS', valueType: 'NUMERIC', value: 60 },
      null,
    ]);
  });

  it('writes a DEVICE_OUT’s typed inputs as the command content, and reads them back', () => {
    expect(body.actions[0]).toEqual({ type: 'MSG_NOTIFY', severity: 'CRITICAL', alarmType: '高温' });
    expect(JSON.parse(body.actions[1]?.type === 'DEVICE_OUT' ? (body.actions[1].content as string) : '')).toEqual({ method: 'stop', params: { force: true } });
    expect(JSON.parse(body.actions[2]?.type === 'DEVICE_OUT' ? (body.actions[2].content as string) : '')).toEqual({ power: false });
    const saved = { ...body, id: 's1', description: null, schedule: body.schedule ?? { scheduleType: 'ANY_TIME' }, createdTime: 0, updatedTime: 0 } as Scene;
    const back = sceneValues(saved, () => 'p1');
    expect(back.actions[1]).toMatchObject({ commandType: 'SERVICE', service: 'stop', params: { force: '1' }, deviceProfileId: 'p1' });
    expect(back.actions[2]).toMatchObject({ commandType: 'ATTRIBUTE', property: 'power', propertyValue: '0' });
    expect(back.triggers[0]!.clear).toMatchObject({ enabled: true, value: 60 });
    expect(back.triggers[1]!.clear).toEqual({ enabled: false });
  });

  it('reads a form that left out its empty lists and untouched parts', () => {
    const partial = sceneBody({ name: 'x', triggers: [{ type: 'HAND_ACT', clear: { enabled: false } }], actions: [{ type: 'MSG_NOTIFY', severity: 'MAJOR', alarmType: 'a' }] });
    expect(partial).toMatchObject({ conditions: [], schedule: { scheduleType: 'ANY_TIME' }, clearRules: [null], enabled: true });
  });

  it('offers a scene to customers only with a HAND_ACT trigger, the only kind a customer runs', () => {
    const byHand = sceneBody({ name: 'x', forCustomers: true, triggers: [{ type: 'HAND_ACT', clear: { enabled: false } }], actions: [] });
    expect(byHand.forCustomers).toBe(true);
    expect(sceneBody({ ...values, forCustomers: true, triggers: [{ ...threshold, clear: { enabled: false } }] }, () => model).forCustomers).toBe(false);
    expect(sceneBody({ name: 'x', triggers: [{ type: 'HAND_ACT', clear: { enabled: false } }], actions: [] }).forCustomers).toBe(false);
    const saved = { ...byHand, id: 's1', description: null, schedule: { scheduleType: 'ANY_TIME' }, createdTime: 0, updatedTime: 0 } as Scene;
    expect(sceneValues(saved).forCustomers).toBe(true);
  });

  it('is checked by the shared scene rules, each problem on the field that shows it', () => {
    const bad = sceneBody({ ...values, triggers: [{ ...threshold, value: 500, clear: { enabled: false } }] }, () => model);
    const violations = sceneFormViolations({ body: bad, models: new Map([['p1', model]]), scenes: [] });
    expect(violations.map((v) => [formPathOf(v.field), v.key])).toEqual([['triggers[0].value', 'error.scene.valueOutOfRange']]);
    expect(formPathOf('clearRules.1.deviceIds.0')).toBe('triggers[1].clear.deviceIds');
    expect(formPathOf('schedule.items.2.weekday')).toBe('schedule.items[2].enabled');
  });
});

describe('a device’s tasks', () => {
  const scene = (id: string, triggers: Trigger[], deviceId: string): Scene =>
    ({ id, name: id, enabled: true, triggers, actions: [{ type: 'DEVICE_OUT', deviceId, commandType: 'SERVICE', content: '{}' }] }) as unknown as Scene;

  it('are the scheduled scenes commanding it, soonest first', () => {
    const from = new Date('2026-01-01T00:00:00Z');
    const tasks = deviceTasks(
      [
        scene('daily', [{ type: 'SCHEDULE_TRIGGER', cron: '0 0 8 * * *', timeZone: 'UTC' }], 'd1'),
        scene('hourly', [{ type: 'SCHEDULE_TRIGGER', cron: '0 0 * * * *', timeZone: 'UTC' }], 'd1'),
        scene('other-device', [{ type: 'SCHEDULE_TRIGGER', cron: '0 0 * * * *', timeZone: 'UTC' }], 'd2'),
        scene('not-scheduled', [threshold], 'd1'),
      ],
      'd1',
      from,
    );
    expect(tasks.map((task) => [task.scene.id, task.nextRun?.toISOString()])).toEqual([
      ['hourly', '2026-01-01T01:00:00.000Z'],
      ['daily', '2026-01-01T08:00:00.000Z'],
    ]);
  });
});
