import { afterEach, describe, expect, it } from 'vitest';
import { commandRoutes } from '../../server/contract/command.ts';
import { deviceRoutes } from '../../server/contract/device.ts';
import { telemetryRoutes } from '../../server/contract/telemetry.ts';
import { thingModelRoutes } from '../../server/contract/thing-model.ts';
import { ConsoleHttp } from '../../scripts/lib/console-http.ts';
import { startSimulator, type RunningSimulator } from '../../scripts/lib/simulator.ts';
import { HUMIDITY, TEMPERATURE } from '../../scripts/lib/simulator-model.ts';
import { eventually } from '../helpers/mqtt.ts';
import { makeProvisionedApp } from '../helpers/setup.ts';

const running: RunningSimulator[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.stop()));
});

async function gateway(): Promise<{ url: string; mqttUrl: string; username: string; password: string; http: ConsoleHttp }> {
  const t = await makeProvisionedApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  if (!address || typeof address === 'string') throw new Error('no TCP address');
  const url = `http://127.0.0.1:${address.port}`;
  const mqttUrl = `mqtt://127.0.0.1:${t.app.services!.transport!.mqttPort}`;
  return { url, mqttUrl, ...t.admin, http: await ConsoleHttp.signIn(url, t.admin.username, t.admin.password) };
}

async function simulate(g: Awaited<ReturnType<typeof gateway>>, devices: number): Promise<RunningSimulator> {
  const sim = await startSimulator({ url: g.url, mqttUrl: g.mqttUrl, username: g.username, password: g.password, devices, rate: 20 });
  running.push(sim);
  return sim;
}

describe('the device simulator', () => {
  it('creates its product with a published thing model and the devices it was asked for', async () => {
    const g = await gateway();
    const sim = await simulate(g, 2);
    expect(sim.devices).toHaveLength(2);
    const tsl = await g.http.call(thingModelRoutes.exportTsl, { params: { deviceProfileId: sim.product.id }, query: { published: true } });
    expect(tsl.properties.map((p) => p.identifier)).toEqual(['temperature', 'humidity', 'switch']);
    expect(tsl.services.map((s) => s.identifier)).toEqual(['setSwitch']);
    expect(tsl.events.map((e) => [e.identifier, e.eventType])).toEqual([['overheat', 'ALERT']]);
  });

  it('publishes telemetry that lands in history within the thing model, for every device', async () => {
    const g = await gateway();
    const sim = await simulate(g, 2);
    for (const device of sim.devices) {
      const history = await eventually(
        () =>
          g.http.call(telemetryRoutes.timeseries, {
            params: { id: device.identity.id },
            query: { keys: 'temperature,humidity,switch', startTs: 0, endTs: Date.now() + 1000, limit: 1000, useStrictDataTypes: true },
          }),
        (h) => (h.temperature?.length ?? 0) >= 3 && (h.humidity?.length ?? 0) >= 3,
        10_000,
      );
      for (const point of history.temperature!) {
        expect(point.value as number).toBeGreaterThanOrEqual(TEMPERATURE.min);
        expect(point.value as number).toBeLessThanOrEqual(TEMPERATURE.max);
        // Published thing model, values of the right type and range: nothing is flagged.
        expect(point.flag).toBeUndefined();
      }
      for (const point of history.humidity!) {
        expect(point.value as number).toBeGreaterThanOrEqual(HUMIDITY.min);
        expect(point.value as number).toBeLessThanOrEqual(HUMIDITY.max);
      }
    }
    const devices = await g.http.call(deviceRoutes.list, { query: { deviceProfileId: sim.product.id } });
    expect(devices.items.map((d) => d.deviceState)).toEqual(['ONLINE', 'ONLINE']);
  });

  it('answers the setSwitch service and reports the new switch state', async () => {
    const g = await gateway();
    const sim = await simulate(g, 2);
    const target = sim.devices[1]!;
    const command = await g.http.call(commandRoutes.send, {
      params: { id: target.identity.id },
      body: { commandType: 'SERVICE', callType: 'SYNC', way: 'twoway', content: { method: 'setSwitch', params: { on: false } } },
    });
    expect(command.status).toBe('SUCCESSFUL');
    expect(JSON.parse(command.responseContent ?? 'null')).toEqual({ success: true });
    expect(target.reading.switch).toBe(false);
    const latest = await eventually(
      () => g.http.call(telemetryRoutes.timeseries, { params: { id: target.identity.id }, query: { keys: 'switch', useStrictDataTypes: true } }),
      (l) => l.switch?.[0]?.value === false,
    );
    expect(latest.switch).toHaveLength(1);
    // The other device was not addressed.
    expect(sim.devices[0]!.reading.switch).toBe(true);
  });

  it('reuses its product and devices when started again', async () => {
    const g = await gateway();
    const first = await simulate(g, 2);
    const ids = first.devices.map((d) => d.identity.id);
    await first.stop();
    const second = await simulate(g, 3);
    expect(second.product.id).toBe(first.product.id);
    expect(second.devices.slice(0, 2).map((d) => d.identity.id)).toEqual(ids);
    expect(second.devices).toHaveLength(3);
    const status = await g.http.call(thingModelRoutes.status, { params: { deviceProfileId: second.product.id } });
    expect(status.publishedVersion).toBe(1);
  });
});
