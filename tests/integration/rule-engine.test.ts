import type { MqttClient } from 'mqtt';
import { describe, expect, it } from 'vitest';
import { alarmRoutes } from '../../server/contract/alarm.ts';
import { commandRoutes } from '../../server/contract/command.ts';
import { notificationRoutes } from '../../server/contract/notification.ts';
import { sceneLinkageRoutes, type SceneLogEntry } from '../../server/contract/scene-linkage.ts';
import { EventBus } from '../../server/lib/event-bus.ts';
import { makeApp } from '../helpers/app.ts';
import { DeviceApi } from '../helpers/devices.ts';
import { testLicenseKeys } from '../helpers/license.ts';
import { connectDevice, eventually, tokenOf } from '../helpers/mqtt.ts';
import { alarmsOf, cooledDown, createScene, makeBoilerApp, overheatScene, overheatTrigger, sendTemperature, type BoilerApp } from '../helpers/scenes.ts';
import { signIn } from '../helpers/session.ts';

async function logOf(t: { api: DeviceApi }, sceneId: string): Promise<SceneLogEntry[]> {
  return (await t.api.ok(sceneLinkageRoutes.log, { params: { id: sceneId } })).items;
}

/** Stops `t` and starts an app on its data dir: its admin signed in and its boiler connected. */
async function restarted(t: BoilerApp): Promise<{ api: DeviceApi; mqtt: MqttClient }> {
  await t.mqtt.endAsync();
  await t.app.close();
  const again = await makeApp({ dataDir: t.dataDir, embeddedLicenseKeys: [testLicenseKeys().publicKeyPem], bus: new EventBus() });
  const { token } = await signIn(again.app, t.admin.username, t.admin.password);
  const api = new DeviceApi(again.app, token);
  return { api, mqtt: await connectDevice(again.app, { username: await tokenOf(api, t.device.id) }) };
}

describe('rule engine on live telemetry', () => {
  it('raises one alarm when the threshold is crossed, and updates it (count, value) when crossed again', async () => {
    const t = await makeBoilerApp();
    const scene = await createScene(t, overheatScene(t.product.id));
    await sendTemperature(t, 70);
    await sendTemperature(t, 85);
    const [first] = await eventually(() => alarmsOf(t), (list) => list.length === 1);
    expect(first).toMatchObject({
      sceneLinkageId: scene.id,
      sceneName: 'boiler_overheat',
      deviceId: t.device.id,
      deviceName: t.device.name,
      severity: 'CRITICAL',
      type: 'overheat',
      status: 'ACTIVE_UNACK',
      count: 1,
      details: { key: 'temperature', operation: 'GREATER', threshold: 80, value: 85, message: 'Boiler too hot' },
    });
    // Staying above does not fire again; falling and rising again does, on the same alarm.
    await sendTemperature(t, 90);
    await sendTemperature(t, 50);
    await sendTemperature(t, 95);
    const again = await eventually(() => alarmsOf(t), (list) => list[0]?.count === 2);
    expect(again).toHaveLength(1);
    expect(again[0]).toMatchObject({ id: first!.id, count: 2, details: { value: 95 } });
    const log = await logOf(t, scene.id);
    expect(log).toHaveLength(2);
    expect(log[0]).toMatchObject({ triggerIndex: 0, triggerType: 'DEVICE_TRIGGER', deviceId: t.device.id, value: 95, conditionsMet: true });
    expect(log[0]?.actions).toEqual([{ index: 0, type: 'MSG_NOTIFY', outcome: 'SUCCESS', resultId: first!.id, error: null }]);
    const bell = await t.api.ok(notificationRoutes.list);
    expect(bell.unreadCount).toBe(2);
    expect(bell.items[0]).toMatchObject({ type: 'ALARM', subject: 'overheat', text: 'Boiler too hot', status: 'SENT', info: { alarmId: first!.id, severity: 'CRITICAL' } });
  });

  it('clears the alarm when the clear rule holds, and a later crossing opens a new one', async () => {
    const t = await makeBoilerApp();
    await createScene(t, overheatScene(t.product.id, { clearRules: [cooledDown(t.product.id)] }));
    await sendTemperature(t, 85);
    const [alarm] = await eventually(() => alarmsOf(t), (list) => list.length === 1);
    await sendTemperature(t, 70); // below the trigger, not yet below the clear threshold
    await sendTemperature(t, 55);
    await eventually(() => t.api.ok(alarmRoutes.get, { params: { id: alarm!.id } }), (a) => a.status === 'CLEARED_UNACK');
    await sendTemperature(t, 99);
    const list = await eventually(() => alarmsOf(t), (l) => l.length === 2);
    expect(list.map((a) => a.status)).toEqual(['ACTIVE_UNACK', 'CLEARED_UNACK']);
  });

  it('raises a new alarm on the next still-hot message after an operator clears one whose condition still holds', async () => {
    const t = await makeBoilerApp();
    await createScene(t, overheatScene(t.product.id));
    await sendTemperature(t, 85);
    const [alarm] = await eventually(() => alarmsOf(t), (list) => list.length === 1);
    await t.api.ok(alarmRoutes.clear, { params: { id: alarm!.id } });
    // The boiler is still too hot: the next message that satisfies the trigger opens a new alarm.
    await sendTemperature(t, 86);
    const list = await eventually(() => alarmsOf(t), (l) => l.length === 2);
    expect(list.map((a) => a.status)).toEqual(['ACTIVE_UNACK', 'CLEARED_UNACK']);
    expect(list[0]).toMatchObject({ count: 1, details: { value: 86 } });
    expect(list[0]!.id).not.toBe(alarm!.id);
  });

  it('fires a DURATION trigger only once the condition has held for the duration', async () => {
    const t = await makeBoilerApp();
    await createScene(t, overheatScene(t.product.id, { triggers: [overheatTrigger(t.product.id, { conditionType: 'DURATION', duration: { value: 1, unit: 'SECONDS' } })] }));
    await sendTemperature(t, 85);
    await sendTemperature(t, 40); // drops before the second is up: the timer is cancelled
    await new Promise((r) => setTimeout(r, 1300));
    expect(await alarmsOf(t)).toHaveLength(0);
    await sendTemperature(t, 86);
    await sendTemperature(t, 87);
    const [alarm] = await eventually(() => alarmsOf(t), (list) => list.length === 1, 4000);
    expect(alarm?.details.value).toBe(86);
  });

  it('fires a REPEATING trigger after the given number of true messages in a row', async () => {
    const t = await makeBoilerApp();
    await createScene(t, overheatScene(t.product.id, { triggers: [overheatTrigger(t.product.id, { conditionType: 'REPEATING', repeat: 3 })] }));
    for (const v of [85, 86, 50, 87, 88]) await sendTemperature(t, v);
    await new Promise((r) => setTimeout(r, 200));
    expect(await alarmsOf(t)).toHaveLength(0);
    await sendTemperature(t, 89);
    const [alarm] = await eventually(() => alarmsOf(t), (list) => list.length === 1);
    expect(alarm?.details.value).toBe(89);
  });

  it('checks condition filters against the latest values, and compares text ignoring case', async () => {
    const t = await makeBoilerApp();
    const scene = await createScene(
      t,
      overheatScene(t.product.id, {
        conditions: [{ deviceProfileId: t.product.id, deviceIds: [], key: 'state', operation: 'EQUAL', valueType: 'STRING', value: 'heating', ignoreCase: true }],
      }),
    );
    await t.mqtt.publishAsync('v1/devices/me/telemetry', JSON.stringify({ state: 'idle' }), { qos: 1 });
    await sendTemperature(t, 85);
    await eventually(() => logOf(t, scene.id), (log) => log.length === 1);
    expect((await logOf(t, scene.id))[0]).toMatchObject({ conditionsMet: false, actions: [] });
    await t.mqtt.publishAsync('v1/devices/me/telemetry', JSON.stringify({ state: 'HEATING', temperature: 50 }), { qos: 1 });
    await sendTemperature(t, 90);
    await eventually(() => alarmsOf(t), (list) => list.length === 1);
  });

  it('sends a DEVICE_OUT command named after the scene, and logs a failing action without stopping the others', async () => {
    const t = await makeBoilerApp();
    const other = await t.models.createDevice({ deviceProfileId: t.product.id });
    const scene = await createScene(
      t,
      overheatScene(t.product.id, {
        triggers: [{ type: 'HAND_ACT' }],
        clearRules: [null],
        actions: [
          { type: 'DEVICE_OUT', deviceId: t.device.id, commandType: 'SERVICE', content: { method: 'nope', params: {} } },
          { type: 'DEVICE_OUT', deviceId: other.id, commandType: 'SERVICE', content: { method: 'stop', params: {} } },
          { type: 'MSG_NOTIFY', severity: 'MAJOR', alarmType: 'manual' },
        ],
      }),
    );
    const entry = await t.api.ok(sceneLinkageRoutes.execute, { params: { id: scene.id } });
    expect(entry).toMatchObject({ triggerIndex: 0, triggerType: 'HAND_ACT', conditionsMet: true });
    expect(entry.actions.map((a) => [a.type, a.outcome])).toEqual([
      ['DEVICE_OUT', 'FAILED'],
      ['DEVICE_OUT', 'SUCCESS'],
      ['MSG_NOTIFY', 'SUCCESS'],
    ]);
    expect(entry.actions[0]?.error).toBe('error.command.serviceInvalid');
    // The offline device's command is queued (ASYNC) and goes out when it connects.
    const records = await t.api.ok(commandRoutes.list, { params: { id: other.id } });
    expect(records.items[0]).toMatchObject({
      id: entry.actions[1]?.resultId,
      status: 'QUEUED',
      commandType: 'SERVICE',
      callType: 'ASYNC',
      source: { type: 'SCENE_LINKAGE', id: scene.id, name: scene.name },
    });
    expect((await logOf(t, scene.id))[0]?.id).toBe(entry.id);
    const [alarm] = await alarmsOf(t);
    expect(alarm).toMatchObject({ type: 'manual', severity: 'MAJOR', deviceId: null });
  });

  it('fires a DEVICE_EVENT trigger when the device reports the event with a matching output parameter', async () => {
    const t = await makeBoilerApp();
    await createScene(
      t,
      overheatScene(t.product.id, {
        triggers: [overheatTrigger(t.product.id, { deviceTriggerType: 'DEVICE_EVENT', key: 'overheat', param: 'temperature', operation: 'GREATER', value: 100 })],
      }),
    );
    const report = (temperature: number) => t.mqtt.publishAsync('v1/devices/me/events', JSON.stringify({ identifier: 'overheat', type: 'ALERT', params: { temperature } }), { qos: 1 });
    await report(90);
    await report(120);
    const [alarm] = await eventually(() => alarmsOf(t), (list) => list.length === 1);
    expect(alarm?.details).toMatchObject({ key: 'overheat.temperature', value: 120 });
  });

  it('lists the scheduled scenes that command a device (the device page task tab)', async () => {
    const t = await makeBoilerApp();
    const stop = { type: 'DEVICE_OUT' as const, deviceId: t.device.id, commandType: 'SERVICE' as const, content: { method: 'stop', params: {} } };
    const nightly = await createScene(t, overheatScene(t.product.id, { name: 'nightly', triggers: [{ type: 'SCHEDULE_TRIGGER', cron: '0 2 * * *', timeZone: 'Asia/Shanghai' }], actions: [stop] }));
    await createScene(t, overheatScene(t.product.id, { name: 'on_heat', actions: [stop] }));
    await createScene(t, overheatScene(t.product.id, { name: 'alarm_only', triggers: [{ type: 'SCHEDULE_TRIGGER', cron: '0 3 * * *', timeZone: 'UTC' }] }));
    const page = await t.api.ok(sceneLinkageRoutes.list, { query: { deviceId: t.device.id, triggerType: 'SCHEDULE_TRIGGER' } });
    expect(page.items.map((s) => s.id)).toEqual([nightly.id]);
    expect((await t.api.ok(sceneLinkageRoutes.list, { query: { deviceId: t.device.id } })).total).toBe(2);
  });

  it('runs a scene chained on another (SCENE_TRIGGER)', async () => {
    const t = await makeBoilerApp();
    const first = await createScene(t, overheatScene(t.product.id, { name: 'first', triggers: [{ type: 'HAND_ACT' }], actions: [] }));
    await createScene(t, overheatScene(t.product.id, { name: 'second', triggers: [{ type: 'SCENE_TRIGGER', sceneId: first.id }] }));
    await t.api.ok(sceneLinkageRoutes.execute, { params: { id: first.id } });
    const [alarm] = await eventually(() => alarmsOf(t), (list) => list.length === 1);
    expect(alarm?.sceneName).toBe('second');
  });

  it('runs a SCHEDULE_TRIGGER on its cron (every second)', async () => {
    const t = await makeBoilerApp();
    const scene = await createScene(
      t,
      overheatScene(t.product.id, { triggers: [{ type: 'SCHEDULE_TRIGGER', cron: '* * * * * *', timeZone: 'Asia/Shanghai' }] }),
    );
    const log = await eventually(() => logOf(t, scene.id), (l) => l.length >= 1, 4000);
    expect(log[0]).toMatchObject({ triggerType: 'SCHEDULE_TRIGGER', triggerIndex: 0 });
    await t.api.ok(sceneLinkageRoutes.setEnabled, { params: { id: scene.id }, body: { enabled: false } });
    const stopped = (await logOf(t, scene.id)).length;
    await new Promise((r) => setTimeout(r, 1500));
    expect((await logOf(t, scene.id)).length).toBe(stopped);
  });

  it('does not fire outside the scene schedule, and refuses to execute there', async () => {
    const t = await makeBoilerApp();
    const now = new Date();
    const weekday = ((now.getUTCDay() + 6) % 7) + 1;
    const otherDay = (weekday % 7) + 1;
    const scene = await createScene(
      t,
      overheatScene(t.product.id, {
        schedule: { scheduleType: 'SPECIFIC_TIME', timeZone: 'UTC', weekdays: [otherDay], startTime: '00:00', endTime: '00:00' },
        triggers: [overheatTrigger(t.product.id), { type: 'HAND_ACT' }],
        clearRules: [null, null],
      }),
    );
    await sendTemperature(t, 99);
    const res = await t.api.call(sceneLinkageRoutes.execute, { params: { id: scene.id } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ key: 'error.scene.outsideSchedule' });
    expect(await alarmsOf(t)).toHaveLength(0);
  });

  it('keeps enabled scenes and open alarms across a restart', async () => {
    const t = await makeBoilerApp();
    await createScene(t, overheatScene(t.product.id, { clearRules: [cooledDown(t.product.id)] }));
    await sendTemperature(t, 85);
    await eventually(() => alarmsOf(t), (list) => list.length === 1);
    const { api, mqtt } = await restarted(t);
    const list = () => api.ok(alarmRoutes.list).then((p) => p.items);
    // The open alarm is known after the restart: the clear rule clears it.
    await mqtt.publishAsync('v1/devices/me/telemetry', JSON.stringify({ temperature: 40 }), { qos: 1 });
    await eventually(list, (l) => l[0]?.status === 'CLEARED_UNACK');
    await mqtt.publishAsync('v1/devices/me/telemetry', JSON.stringify({ temperature: 120 }), { qos: 1 });
    await eventually(list, (l) => l.length === 2 && l[0]?.status === 'ACTIVE_UNACK');
    await mqtt.endAsync();
  });

  it('loads every enabled scene after a restart, pages of them (the engine reads them 100 at a time), and no disabled one', async () => {
    const t = await makeBoilerApp();
    const SCENES = 230;
    const enabled: string[] = [];
    for (let i = 0; i < SCENES; i++) {
      const on = i % 3 !== 0;
      const scene = await createScene(t, overheatScene(t.product.id, { name: `boiler_${i}`, enabled: on }));
      if (on) enabled.push(scene.id);
    }
    const { api, mqtt } = await restarted(t);
    await mqtt.publishAsync('v1/devices/me/telemetry', JSON.stringify({ temperature: 85 }), { qos: 1 });
    const all = async () => {
      const items = [];
      for (let page = 1; page <= 3; page++) items.push(...(await api.ok(alarmRoutes.list, { query: { page, pageSize: 100 } })).items);
      return items;
    };
    const alarms = await eventually(all, (l) => l.length === enabled.length, 10_000);
    // Each alarm is named after its scene: the engine read the scene's name and action by id when it fired.
    expect(new Set(alarms.map((a) => a.sceneLinkageId))).toEqual(new Set(enabled));
    expect(alarms.find((a) => a.sceneLinkageId === enabled.at(-1))).toMatchObject({ sceneName: `boiler_${SCENES - 1}`, type: 'overheat', severity: 'CRITICAL' });
    await mqtt.endAsync();
  });
});
