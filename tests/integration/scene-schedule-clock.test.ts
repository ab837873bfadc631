/**
 * A scene's schedule window past midnight through the whole app, with the clock moved
 * (vi.setSystemTime; timers stay real): SPECIFIC_TIME Monday 22:00 → 02:00 UTC is in force on
 * Monday 00:00–02:00 and 22:00–24:00, as ThingsBoard's alarm schedule reads it, and not on
 * Tuesday 01:00. Both the manual run (HAND_ACT) and a threshold crossing obey it.
 */
import type { MqttClient } from 'mqtt';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { sceneLinkageRoutes } from '../../server/contract/scene-linkage.ts';
import { DeviceApi } from '../helpers/devices.ts';
import { connectDevice, eventually, tokenOf } from '../helpers/mqtt.ts';
import { alarmsOf, createScene, makeBoilerApp, overheatScene, overheatTrigger, sendTemperature, type BoilerApp } from '../helpers/scenes.ts';
import { signIn } from '../helpers/session.ts';

/** A Monday at least a week ahead (so tokens signed in "then" are fresh), `hhmm` UTC, plus `days`. */
const realNow = Date.now();
function mondayAt(hhmm: string, days = 0): number {
  const d = new Date(realNow); // the real day, not the moved one
  const toMonday = ((1 - d.getUTCDay() + 7) % 7 || 7) + 7;
  const [h, m] = hhmm.split(':').map(Number);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + toMonday + days, h, m);
}

const clients: MqttClient[] = [];

/**
 * Moves the clock to `at`; there signs in again (a token from another day would be expired) and
 * connects the boiler again (the broker drops a connection silent for days by its clock).
 */
async function clockAt(t: BoilerApp, at: number): Promise<BoilerApp> {
  if (!vi.isFakeTimers()) vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(at);
  const { token } = await signIn(t.app, t.admin.username, t.admin.password);
  const api = new DeviceApi(t.app, token);
  const mqtt = await connectDevice(t.app, { username: await tokenOf(api, t.device.id) });
  clients.push(mqtt);
  return { ...t, api, mqtt };
}

afterEach(async () => {
  vi.useRealTimers();
  await Promise.all(clients.splice(0).map((c) => c.endAsync(true)));
});

describe('schedule window past midnight, with the clock moved', () => {
  it('is in force in the early hours and the late evening of the chosen day, not in the next morning', async () => {
    const t = await makeBoilerApp();
    const scene = await createScene(
      t,
      overheatScene(t.product.id, {
        schedule: { scheduleType: 'SPECIFIC_TIME', timeZone: 'UTC', weekdays: [1], startTime: '22:00', endTime: '02:00' },
        triggers: [overheatTrigger(t.product.id), { type: 'HAND_ACT' }],
        clearRules: [null, null],
      }),
    );
    const execute = async (at: number): Promise<number> => {
      const moved = await clockAt(t, at);
      const res = await moved.api.call(sceneLinkageRoutes.execute, { params: { id: scene.id } });
      return res.statusCode;
    };
    // The clock only moves forward: the licence refuses a clock set back (403).
    expect(await execute(mondayAt('01:00'))).toBe(200);
    expect(await execute(mondayAt('02:00'))).toBe(400);
    expect(await execute(mondayAt('21:59'))).toBe(400);
    expect(await execute(mondayAt('23:30'))).toBe(200);
    expect(await execute(mondayAt('01:00', 1))).toBe(400); // Tuesday 01:00: Tuesday is not chosen

    // A crossing on Tuesday at 01:00 raises nothing; the next one, on next Monday at 23:00, does: one
    // alarm of the device, raised once (had Tuesday's fired, it would show first or count 2).
    const ofDevice = (list: { deviceId: string | null }[]) => list.filter((a) => a.deviceId === t.device.id);
    const tuesday = await clockAt(t, mondayAt('01:00', 1));
    await sendTemperature(tuesday, 40);
    await sendTemperature(tuesday, 99);
    await sendTemperature(tuesday, 40);
    const monday = await clockAt(t, mondayAt('23:00', 7));
    await sendTemperature(monday, 99);
    const alarms = ofDevice(await eventually(() => alarmsOf(monday), (list) => ofDevice(list).length > 0));
    expect(alarms).toHaveLength(1);
    expect(alarms[0]).toMatchObject({ count: 1, startTs: mondayAt('23:00', 7) });
  });
});
