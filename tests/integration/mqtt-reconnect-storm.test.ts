/**
 * After a restart every device of a site reconnects at once (a power cut, an update): the gateway
 * must let every one in (CONNACK 0, no refusal, no client giving up on its CONNACK) and keep
 * answering the console while it does. 1,000 devices here; the bench runs 10,000
 * (scripts/lib/bench-scale.ts) and times it.
 */
import { setImmediate as turn } from 'node:timers/promises';
import { connectAsync, type MqttClient } from 'mqtt';
import { describe, expect, it } from 'vitest';
import { deviceImportRoutes } from '../../server/contract/device-import.ts';
import { deviceRoutes } from '../../server/contract/device.ts';
import { EventBus } from '../../server/lib/event-bus.ts';
import { makeApp } from '../helpers/app.ts';
import { DeviceApi } from '../helpers/devices.ts';
import { testLicenseKeys } from '../helpers/license.ts';
import { eventually, mqttUrl } from '../helpers/mqtt.ts';
import { signIn } from '../helpers/session.ts';
import { makeProvisionedApp } from '../helpers/setup.ts';

const DEVICES = 1000;

describe('a reconnect storm after a restart', () => {
  it('lets 1,000 devices reconnecting at once all in, none refused or timed out, while the device list keeps answering', { timeout: 120_000 }, async () => {
    const t = await makeProvisionedApp();
    const before = new DeviceApi(t.app, (await signIn(t.app, t.admin.username, t.admin.password)).token);
    const product = await before.createProduct();
    const batch = await before.ok(deviceImportRoutes.batch, { body: { deviceProfileId: product.id, count: DEVICES, aliasPrefix: 'storm-' } });
    await t.app.close();

    const again = await makeApp({ dataDir: t.dataDir, embeddedLicenseKeys: [testLicenseKeys().publicKeyPem], bus: new EventBus() });
    const { token } = await signIn(again.app, t.admin.username, t.admin.password);
    const api = new DeviceApi(again.app, token);
    const url = mqttUrl(again.app);

    const clients: MqttClient[] = [];
    let stormOver = false;
    // Every device at once; MQTT.js's own CONNACK timeout (30 s) decides what "timed out" means.
    const storm = Promise.allSettled(
      batch.items.map(async (d, i) => {
        const client = await connectAsync(url, { username: d.token, clientId: `storm-${i}`, reconnectPeriod: 0, keepalive: 60 });
        clients.push(client);
      }),
    ).finally(() => (stormOver = true));
    const answers: number[] = [];
    while (!stormOver) {
      answers.push((await api.call(deviceRoutes.list, { query: { pageSize: 10 } })).statusCode);
      // app.inject can answer without giving the sockets a turn: let the storm go on between calls.
      await turn();
    }
    const outcomes = await storm;
    try {
      const failures = outcomes.filter((o) => o.status === 'rejected').map((o) => String(o.reason));
      expect(failures).toEqual([]);
      expect(clients).toHaveLength(DEVICES);
      expect(answers.length).toBeGreaterThan(0);
      expect(answers.every((s) => s === 200)).toBe(true);
      const online = await eventually(
        () => api.ok(deviceRoutes.list, { query: { deviceState: 'ONLINE', pageSize: 1 } }),
        (page) => page.total === DEVICES,
      );
      expect(online.total).toBe(DEVICES);
    } finally {
      await Promise.all(clients.map((c) => c.endAsync(true).catch(() => undefined)));
    }
  });
});
