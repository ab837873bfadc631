/**
 * The edge-* palette nodes (server/contract/node-red-palette.ts) in a real Node-RED instance: a
 * flow deployed through the proxied admin API moves a device's values into another device's
 * telemetry, the thing model of the receiving device refuses what does not fit, a custom TCP
 * device's frame comes back transformed through "edge TCP in/out", and the instance's
 * credential opens nothing but the palette's routes, from loopback, while the instance runs. One
 * instance serves the whole case (an app lives for one test): Node-RED takes seconds to boot on a
 * loaded machine.
 */
import { readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { MqttClient } from 'mqtt';
import type { Response as LightResponse } from 'light-my-request';
import type { NodeRedInstance } from '../../server/contract/node-red.ts';
import { NODE_RED_INSTANCE_HEADER, nodeRedPaletteRoutes } from '../../server/contract/node-red-palette.ts';
import { deviceRoutes, type Device } from '../../server/contract/device.ts';
import { telemetryRoutes } from '../../server/contract/telemetry.ts';
import { alarmRoutes } from '../../server/contract/alarm.ts';
import { call, deploy, editorCookie, listen, running, type Gateway } from '../helpers/node-red.ts';
import { connectDevice, tokenOf } from '../helpers/mqtt.ts';
import { makeProvisionedApp } from '../helpers/setup.ts';
import { signIn } from '../helpers/session.ts';
import { ThingModelApi, propertyBody } from '../helpers/thing-model.ts';
import { waitFor } from '../helpers/wait-for.ts';

const PORT_BASE = 43000 + Math.floor(Math.random() * 2000) * 10;

let g: Gateway;
let api: ThingModelApi;
let instance: NodeRedInstance;
let source: Device;
let target: Device;
let sourceMqtt: MqttClient;
let meter: Device;
let mirror: Device;

/** What the gateway generated for the instance, read where only the gateway's own user may read it. */
function paletteCredential(dataDir: string, id: string): string {
  const secrets = JSON.parse(readFileSync(join(dataDir, 'node-red-secrets.json'), 'utf8')) as Record<string, string>;
  return `${id}:${secrets[`${id}:palette`]}`;
}

function postTelemetry(headers: Record<string, string>, remoteAddress: string, body: unknown): Promise<LightResponse> {
  const { method, url } = nodeRedPaletteRoutes.telemetry;
  return g.t.app.inject({ method, url, headers, remoteAddress, payload: body as object });
}

async function history(deviceId: string): Promise<number[]> {
  const values = await api.ok(telemetryRoutes.timeseries, { params: { id: deviceId }, query: { keys: 'temperature', startTs: 0, limit: 100 } });
  return (values.temperature ?? []).map((p) => Number(p.value));
}

async function setUp(): Promise<void> {
  const t = await makeProvisionedApp();
  const { token } = await signIn(t.app, t.admin.username, t.admin.password);
  api = new ThingModelApi(t.app, token);
  g = await listen(t, token);
  await call(g, 'PUT', '/api/yt/configuration/port_range', { start: PORT_BASE, end: PORT_BASE + 9 });

  // The receiving device's product publishes a model: temperature, an integer from 0 to 100.
  const product = await api.createProduct();
  await api.createItem(propertyBody(product.id, { identifier: 'temperature' }));
  await api.publish(product.id);
  source = await api.createDevice();
  target = await api.createDevice({ deviceProfileId: product.id });
  sourceMqtt = await connectDevice(t.app, { username: await tokenOf(api, source.id) });
  const tcpProduct = await api.createProduct({ transportType: 'TCP', tcpProtocolType: 'CUSTOM', tcpAuthType: 'REGISTER_SEND' });
  meter = await api.createDevice({ deviceProfileId: tcpProduct.id, registration: { format: 'ASCII', value: 'METER-SITE-0001-7Q2X' } });
  // Follows the source's whole product: a product of its own, or the flow would follow its own writes.
  mirror = await api.createDevice({ deviceProfileId: (await api.createProduct()).id });

  instance = (await call<NodeRedInstance>(g, 'POST', '/api/yt/node_red', { name: 'palette' })).json;
  await running(g, instance.id);
  const cookie = await editorCookie(g, instance.id);
  await deploy(g, instance.id, cookie, [
    { id: 'tab-p', type: 'tab', label: 'palette' },
    { id: 'in', type: 'edge telemetry in', z: 'tab-p', deviceId: source.id, x: 100, y: 60, wires: [['out', 'hot']] },
    // Too hot: an alarm on the source device, under the instance's name.
    { id: 'hot', type: 'function', z: 'tab-p', func: "msg.topic = 'overheat'; return msg.payload.temperature > 100 ? msg : null;", outputs: 1, x: 250, y: 110, wires: [['alarm']] },
    { id: 'alarm', type: 'edge alarm', z: 'tab-p', action: 'RAISE', severity: 'CRITICAL', x: 400, y: 110, wires: [[]] },
    { id: 'out', type: 'edge telemetry out', z: 'tab-p', deviceId: target.id, x: 300, y: 60, wires: [] },
    { id: 'in-product', type: 'edge telemetry in', z: 'tab-p', productId: source.deviceProfileId, x: 100, y: 210, wires: [['to-mirror']] },
    { id: 'to-mirror', type: 'edge telemetry out', z: 'tab-p', deviceId: mirror.id, x: 300, y: 210, wires: [] },
    // A vendor protocol handled in the flow: each frame answered in upper case.
    { id: 'tcp-in', type: 'edge TCP in', z: 'tab-p', deviceId: meter.id, x: 100, y: 160, wires: [['upper']] },
    { id: 'upper', type: 'function', z: 'tab-p', func: 'msg.payload = Buffer.from(msg.payload.toString().toUpperCase()); return msg;', outputs: 1, x: 250, y: 160, wires: [['tcp-out']] },
    { id: 'tcp-out', type: 'edge TCP out', z: 'tab-p', x: 400, y: 160, wires: [] },
  ]);
}

/**
 * A value A publishes over MQTT goes through "edge telemetry in → edge telemetry out" into B, and
 * through a node following A's product into a third device.
 */
async function movesValues(): Promise<void> {
  // The flow's websocket subscribes some time after the deploy: publish until a value arrives.
  await waitFor('the value in the target device and the product follower', async () => {
    await sourceMqtt.publishAsync('v1/devices/me/telemetry', JSON.stringify({ temperature: 21 }));
    return (await history(target.id)).includes(21) && (await history(mirror.id)).includes(21) ? true : null;
  });
}

/** Nothing of a message B's thing model refuses is stored, and the node reports why. */
async function refusesMisfits(): Promise<void> {
  // Two measuring times: the source keeps both, and the flow gets them as two messages even when
  // the gateway commits them together.
  const ts = Date.now();
  await sourceMqtt.publishAsync('v1/devices/me/telemetry', JSON.stringify({ ts: ts - 1000, values: { temperature: 150 } }));
  await sourceMqtt.publishAsync('v1/devices/me/telemetry', JSON.stringify({ ts, values: { temperature: 42 } }));
  // The node's calls run side by side: wait for both answers, the refusal (in the log) and the value.
  await waitFor('the refusal in the instance log', async () => {
    const { lines } = (await call<{ lines: string[] }>(g, 'GET', `/api/yt/node_red/${instance.id}/log`)).json;
    return lines.some((line) => /edge telemetry out.*temperature/.test(line)) ? true : null;
  });
  await waitFor('the value sent after the refused one', async () => ((await history(target.id)).includes(42) ? true : null));
  expect(await history(target.id)).not.toContain(150);
  // The source kept its own value: its product has no model to refuse it.
  expect(await history(source.id)).toContain(150);
  // And the flow raised an alarm on it for that value.
  const raised = await waitFor('the overheat alarm', async () => {
    const { items } = await api.ok(alarmRoutes.list, { query: { deviceId: source.id } });
    return items.find((a) => a.type === 'overheat') ?? null;
  });
  expect(raised).toMatchObject({ sceneName: 'palette', severity: 'CRITICAL', status: 'ACTIVE_UNACK', details: { value: { temperature: 150 } } });
}

/** A custom TCP device registers over a real socket; its frame comes back through the flow, transformed. */
async function echoesTcpFrames(): Promise<void> {
  const port = g.t.app.services!.tcpAccess!.server.port;
  const socket: Socket = connect({ port, host: '127.0.0.1' });
  let received = '';
  socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
  socket.on('error', () => undefined);
  try {
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    socket.write('METER-SITE-0001-7Q2X');
    // The flow's subscription comes some time after the deploy: send until an answer comes back.
    await waitFor('the frame back from the flow', () => {
      if (received.includes('PING 7')) return true;
      socket.write('ping 7');
      return null;
    });
  } finally {
    socket.destroy();
  }
}

/** The instance's credential opens the palette's route from loopback only, and nothing else. */
async function credentialIsNarrow(): Promise<void> {
  const credential = { [NODE_RED_INSTANCE_HEADER]: paletteCredential(g.t.dataDir, instance.id) };
  const body = { deviceId: target.id, values: { temperature: 7 } };
  expect((await postTelemetry(credential, '127.0.0.1', body)).json()).toEqual({ ok: true });
  const refused = await postTelemetry(credential, '127.0.0.1', { deviceId: target.id, values: { temperature: 7, humidity: 3 } });
  expect(refused.statusCode).toBe(400);
  expect(refused.json()).toMatchObject({ key: 'error.nodeRedPalette.modelRefused', details: [{ field: 'values.humidity' }] });

  // Edge command and the clearing side of edge alarm: under the instance's name.
  const palette = (route: (typeof nodeRedPaletteRoutes)['command' | 'alarm'], body: unknown): Promise<LightResponse> =>
    g.t.app.inject({ ...route, headers: credential, remoteAddress: '127.0.0.1', payload: body as object });
  const command = await palette(nodeRedPaletteRoutes.command, { deviceId: source.id, commandType: 'CUSTOM', callType: 'ASYNC', way: 'oneway', content: { method: 'valve', params: { open: true } } });
  expect(command.json()).toMatchObject({ deviceId: source.id, source: { type: 'NODE_RED', id: instance.id, name: 'palette' } });
  expect((await palette(nodeRedPaletteRoutes.command, { deviceId: source.id, commandType: 'CUSTOM', callType: 'ASYNC', way: 'sideways', content: 'x' })).statusCode).toBe(400);
  const cleared = (await palette(nodeRedPaletteRoutes.alarm, { deviceId: source.id, action: 'CLEAR', type: 'overheat' })).json() as { alarm: { status: string } };
  expect(cleared.alarm.status).toBe('CLEARED_UNACK');
  expect((await palette(nodeRedPaletteRoutes.alarm, { deviceId: source.id, action: 'CLEAR', type: 'overheat' })).json()).toEqual({ alarm: null });

  // TCP out: the frame reaches only a custom TCP device that is connected.
  const tcp = (body: unknown): Promise<LightResponse> => g.t.app.inject({ ...nodeRedPaletteRoutes.tcp, headers: credential, remoteAddress: '127.0.0.1', payload: body as object });
  expect((await tcp({ deviceId: target.id, frame: '00ff' })).json()).toMatchObject({ key: 'error.nodeRedPalette.notCustomTcp' });
  await waitFor('the meter offline', async () => ((await api.ok(deviceRoutes.get, { params: { id: meter.id } })).deviceState === 'OFFLINE' ? true : null));
  expect((await tcp({ deviceId: meter.id, frame: '00ff' })).json()).toMatchObject({ key: 'error.nodeRedPalette.tcpNotConnected' });
  expect((await tcp({ deviceId: meter.id, frame: 'zz' })).statusCode).toBe(400);
  expect((await tcp({ deviceId: 'no-such-device', frame: '00ff' })).statusCode).toBe(404);

  // From another address, with a forged secret, or with a user's token: 401.
  expect((await postTelemetry(credential, '192.168.1.20', body)).statusCode).toBe(401);
  expect((await postTelemetry({ [NODE_RED_INSTANCE_HEADER]: `${instance.id}:forged` }, '127.0.0.1', body)).statusCode).toBe(401);
  expect((await postTelemetry(g.auth, '127.0.0.1', body)).statusCode).toBe(401);
  // The credential is no user: a user's route refuses it.
  expect((await g.t.app.inject({ url: '/api/yt/node_red', headers: credential, remoteAddress: '127.0.0.1' })).statusCode).toBe(401);

  // A stopped instance's credential opens nothing.
  await call(g, 'POST', `/api/yt/node_red/${instance.id}/stop`);
  expect((await postTelemetry(credential, '127.0.0.1', body)).statusCode).toBe(401);
  expect((await history(target.id)).filter((v) => v === 7)).toHaveLength(1);
}

describe('soft gateway: palette nodes that know the gateway', () => {
  it('moves device values through a flow into another device, refuses what its model refuses, raises alarms, sends commands, echoes TCP frames, and keeps the credential narrow', async () => {
    await setUp();
    await movesValues();
    await refusesMisfits();
    await echoesTcpFrames();
    await credentialIsNarrow();
    await call(g, 'DELETE', '/api/yt/node_red', { ids: [instance.id] });
  }, 300_000);
});
