/**
 * The cloud link against a real ThingsBoard-style cloud: a second instance of this app, where the
 * edge is a GATEWAY device whose access token is the edge's platformKey. Its sub-devices appear
 * there with their telemetry, an RPC from the cloud reaches the edge's device and its answer comes
 * back, and refused credentials show on the edge state.
 */
import { describe, expect, it } from 'vitest';
import { cloudRoutes } from '../../server/contract/cloud.ts';
import { cloudLinkRoutes, type EdgeState } from '../../server/contract/cloud-link.ts';
import { commandRoutes } from '../../server/contract/command.ts';
import { deviceRoutes, type Device } from '../../server/contract/device.ts';
import { sharedAttributeRoutes } from '../../server/contract/shared-attributes.ts';
import { telemetryRoutes } from '../../server/contract/telemetry.ts';
import { makeDeviceApp, type DeviceTestApp } from '../helpers/devices.ts';
import { connectDevice, eventually, tokenOf } from '../helpers/mqtt.ts';

const FAST = { cloudLink: { backoffMinMs: 100, backoffMaxMs: 400 } };

async function linkedPair(): Promise<{ cloud: DeviceTestApp; edge: DeviceTestApp; gateway: Device }> {
  const cloud = await makeDeviceApp({ deviceSn: 'CLOUD-SN-0001' });
  const gateway = await cloud.api.createDevice({ deviceType: 'GATEWAY', name: 'Edge_Gateway' });
  const token = await tokenOf(cloud.api, gateway.id);
  const edge = await makeDeviceApp({ tuning: FAST });
  await edge.api.ok(cloudRoutes.save, {
    body: { platformAddress: '127.0.0.1', platformPort: cloud.app.services!.transport!.mqttPort, platformKey: token, platformSecret: 'unused-with-a-token' },
  });
  await eventually(() => edge.api.ok(cloudLinkRoutes.state, {}), (s) => s.status === 'CONNECTED');
  return { cloud, edge, gateway };
}

async function cloudDevice(cloud: DeviceTestApp, name: string): Promise<Device | undefined> {
  const page = await cloud.api.ok(deviceRoutes.list, { query: { name, pageSize: 100 } });
  return page.items.find((d) => d.name === name);
}

describe('cloud link to a second gateway standing in for the cloud', () => {
  it('makes each local device a sub-device of the edge in the cloud, with its telemetry', async () => {
    const { cloud, edge, gateway } = await linkedPair();
    const local = await edge.api.createDevice({ name: 'Sensor_A' });
    const device = await connectDevice(edge.app, { username: await tokenOf(edge.api, local.id) });
    const ts = Date.now() - 1000;
    await device.publishAsync('v1/devices/me/telemetry', JSON.stringify({ ts, values: { humidity: 41 } }), { qos: 1 });

    const remote = await eventually(() => cloudDevice(cloud, 'Sensor_A'), (d) => d !== undefined, 10_000);
    expect(remote).toMatchObject({ gatewayId: gateway.id, productName: local.productName });
    const history = await eventually(
      () => cloud.api.ok(telemetryRoutes.timeseries, { params: { id: remote!.id }, query: { keys: 'humidity', startTs: 0 } }),
      (h) => (h.humidity ?? []).length === 1,
      10_000,
    );
    expect(history.humidity).toEqual([{ ts, value: 41 }]);
  });

  it('carries an RPC from the cloud to the local device and its answer back', async () => {
    const { cloud, edge } = await linkedPair();
    const local = await edge.api.createDevice({ name: 'Pump_B' });
    const device = await connectDevice(edge.app, { username: await tokenOf(edge.api, local.id) });
    device.on('message', (topic, payload) => {
      const id = /^v1\/devices\/me\/rpc\/request\/(\d+)$/.exec(topic)?.[1];
      if (!id) return;
      const request = JSON.parse(payload.toString()) as { method: string; params: { speed: number } };
      device.publish(`v1/devices/me/rpc/response/${id}`, JSON.stringify({ method: request.method, speed: request.params.speed * 2 }), { qos: 1 });
    });
    await device.subscribeAsync('v1/devices/me/rpc/request/+', { qos: 1 });
    const remote = await eventually(() => cloudDevice(cloud, 'Pump_B'), (d) => d !== undefined && d.deviceState === 'ONLINE', 10_000);

    const res = await cloud.api.call(commandRoutes.send, {
      params: { id: remote!.id },
      body: { commandType: 'CUSTOM', callType: 'SYNC', way: 'twoway', content: { method: 'setSpeed', params: { speed: 21 } } },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ status: 'SUCCESSFUL', responseType: 'JSON' });
    expect(JSON.parse(res.json().responseContent as string)).toEqual({ method: 'setSpeed', speed: 42 });
    // On the edge, the command record says the cloud sent it.
    const records = await edge.api.ok(commandRoutes.list, { params: { id: local.id }, query: { pageSize: 10 } });
    expect(records.items).toEqual([expect.objectContaining({ source: { type: 'CLOUD' }, commandType: 'CUSTOM', status: 'SUCCESSFUL' })]);
  });

  it('hands a shared attribute update from the cloud to the local device', async () => {
    const { cloud, edge } = await linkedPair();
    const local = await edge.api.createDevice({ name: 'Lamp_C' });
    const device = await connectDevice(edge.app, { username: await tokenOf(edge.api, local.id) });
    const pushed: unknown[] = [];
    device.on('message', (topic, payload) => {
      if (topic === 'v1/devices/me/attributes') pushed.push(JSON.parse(payload.toString()));
    });
    await device.subscribeAsync('v1/devices/me/attributes', { qos: 1 });
    const remote = await eventually(() => cloudDevice(cloud, 'Lamp_C'), (d) => d !== undefined && d.deviceState === 'ONLINE', 10_000);

    await cloud.api.ok(sharedAttributeRoutes.save, { params: { id: remote!.id, scope: 'SHARED_SCOPE' }, body: { brightness: 70 } });
    await eventually(() => pushed, (p) => p.length > 0, 10_000);
    expect(pushed).toContainEqual({ brightness: 70 });
  });

  it('refuses a cloud whose TLS certificate it cannot verify, saying so on the edge state', async () => {
    // The second gateway's MQTTS listener presents its self-signed certificate.
    const cloud = await makeDeviceApp({ deviceSn: 'CLOUD-SN-0003' });
    const edge = await makeDeviceApp({ tuning: FAST });
    await edge.api.ok(cloudRoutes.save, {
      body: { platformAddress: '127.0.0.1', platformPort: cloud.app.services!.transport!.mqttsPort!, platformKey: 'any', platformSecret: 'x', platformTls: true },
    });
    const state = await eventually(() => edge.api.ok(cloudLinkRoutes.state, { lang: 'en-US' }), (s) => s.status === 'DISCONNECTED' && s.lastError !== undefined);
    expect(state.lastError).toMatch(/^Secure connection to the cloud server failed: /);
  });

  it('shows refused credentials on the edge state as DISCONNECTED with the reason, and keeps trying', async () => {
    const cloud = await makeDeviceApp({ deviceSn: 'CLOUD-SN-0002' });
    const edge = await makeDeviceApp({ tuning: FAST });
    await edge.api.ok(cloudRoutes.save, {
      body: { platformAddress: '127.0.0.1', platformPort: cloud.app.services!.transport!.mqttPort, platformKey: 'not-a-token', platformSecret: 'x' },
    });
    const state: EdgeState = await eventually(() => edge.api.ok(cloudLinkRoutes.state, { lang: 'en-US' }), (s) => s.status === 'DISCONNECTED' && s.lastError !== undefined);
    expect(state.lastError).toMatch(/^Refused: /);
    expect(state.lastConnectTime).toBeUndefined();
  });
});
