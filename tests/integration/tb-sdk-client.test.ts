/**
 * ThingsBoard's Python SDK sequences (tests/helpers/tb-sdk-client.py on Debian's python3-paho-mqtt):
 * provisioning with `"gateway": true`, the gateway's subscriptions, client RPC and sub-device
 * messages with the token it got, then the short v2 topics and a firmware request, over MQTT 3.1.1
 * and MQTT 5, as the SDK speaks both.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { deviceRoutes } from '../../server/contract/device.ts';
import { telemetryRoutes } from '../../server/contract/telemetry.ts';
import { makeDeviceApp } from '../helpers/devices.ts';

const run = promisify(execFile);
/** Debian's interpreter: python3-paho-mqtt is installed for it, not for other pythons on PATH. */
const PYTHON = '/usr/bin/python3';
const SCRIPT = fileURLToPath(new URL('../helpers/tb-sdk-client.py', import.meta.url));

describe('the ThingsBoard SDK’s provisioning and gateway sequences', () => {
  it.each([4, 5])('provision a gateway, run its sub-devices and speak the short topics (MQTT version %i)', async (version) => {
    const t = await makeDeviceApp();
    const product = (await t.api.createProduct({ provisionEnabled: true })) as { provisionDeviceKey: string; provisionDeviceSecret: string };
    const port = String(t.app.services!.transport!.mqttPort);
    const args = [SCRIPT, '127.0.0.1', port, String(version), product.provisionDeviceKey, product.provisionDeviceSecret, `SDK gateway ${version}`, `SDK meter ${version}`];
    const { stdout } = await run(PYTHON, args, { timeout: 90_000 });
    const out = JSON.parse(stdout) as Record<string, Record<string, unknown>>;

    expect(out.provision).toMatchObject({ status: 'SUCCESS', credentialsType: 'ACCESS_TOKEN' });
    expect(out.gateway).toMatchObject({ connack: 0, gatewayPublishes: [true, true, true], sessionLimits: { maxPayloadSize: expect.any(Number) as number } });
    expect(out.short).toMatchObject({
      published: [true, true],
      attributes: { client: { firmwareVersion: '1.0.2' } },
      currentTime: { time: expect.any(Number) as number },
      firmware: 'NOT_FOUND',
      closed: true,
    });

    const gateway = (await t.api.ok(deviceRoutes.list, { query: { name: `SDK gateway ${version}` } })).items[0]!;
    expect(gateway.deviceType).toBe('GATEWAY');
    const meter = (await t.api.ok(deviceRoutes.list, { query: { name: `SDK meter ${version}` } })).items[0]!;
    expect(meter).toMatchObject({ deviceType: 'SENSOR', gatewayId: gateway.id });
    const read = (id: string, keys: string) => t.api.ok(telemetryRoutes.timeseries, { params: { id }, query: { keys } });
    expect((await read(meter.id, 'temperature')).temperature).toEqual([{ ts: 1700000000000, value: 21.5 }]);
    expect((await read(gateway.id, 'shortTemperature')).shortTemperature).toEqual([{ ts: 1700000001000, value: 7 }]);
  });
});
