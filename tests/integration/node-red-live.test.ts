/**
 * The palette's live commands on /api/ws as a client speaks them, without Node-RED's nodes in
 * between (tests/integration/node-red-palette.test.ts drives them through a flow): a running
 * instance's credential follows a device's stored messages (NODE_RED_TELEMETRY) or a product's,
 * and a custom TCP device's frames (NODE_RED_TCP), until it unsubscribes; a forged secret, and a
 * command naming both a device and a product, are refused.
 */
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { NodeRedInstance } from '../../server/contract/node-red.ts';
import { WsErrorCode } from '../../server/contract/realtime.ts';
import { LiveClient } from '../helpers/live.ts';
import { connectDevice, tokenOf } from '../helpers/mqtt.ts';
import { call, listen, running } from '../helpers/node-red.ts';
import { makeProvisionedApp } from '../helpers/setup.ts';
import { signIn } from '../helpers/session.ts';
import { ThingModelApi } from '../helpers/thing-model.ts';

const PORT_BASE = 45000 + Math.floor(Math.random() * 2000) * 10;

describe('soft gateway: the palette live commands', () => {
  it('follows a device, a product and a TCP device for a running instance, until unsubscribed, and refuses a forged secret', { timeout: 120_000 }, async () => {
    const t = await makeProvisionedApp();
    const { token } = await signIn(t.app, t.admin.username, t.admin.password);
    const api = new ThingModelApi(t.app, token);
    const g = await listen(t, token);
    await call(g, 'PUT', '/api/yt/configuration/port_range', { start: PORT_BASE, end: PORT_BASE + 9 });
    const device = await api.createDevice();
    const mqtt = await connectDevice(t.app, { username: await tokenOf(api, device.id) });
    const tcpProduct = await api.createProduct({ transportType: 'TCP', tcpProtocolType: 'CUSTOM', tcpAuthType: 'REGISTER_SEND' });
    const meter = await api.createDevice({ deviceProfileId: tcpProduct.id, registration: { format: 'ASCII', value: 'METER-LIVE-0001-7Q2X' } });
    const instance = (await call<NodeRedInstance>(g, 'POST', '/api/yt/node_red', { name: 'live' })).json;
    await running(g, instance.id);
    const secrets = JSON.parse(readFileSync(join(t.dataDir, 'node-red-secrets.json'), 'utf8')) as Record<string, string>;
    const credential = { instanceId: instance.id, secret: secrets[`${instance.id}:palette`]! };
    const socket = await LiveClient.open({ baseUrl: g.base });

    // A forged secret: refused on its cmdId.
    socket.send({ cmds: [{ type: 'NODE_RED_TELEMETRY', cmdId: 9, ...credential, secret: 'x'.repeat(43), deviceId: device.id }] });
    expect(await socket.answer(9)).toMatchObject({ errorCode: WsErrorCode.UNAUTHORIZED });
    // A device and a product at once: refused.
    socket.send({ cmds: [{ type: 'NODE_RED_TELEMETRY', cmdId: 8, ...credential, deviceId: device.id, productId: device.deviceProfileId }] });
    expect(await socket.answer(8)).toMatchObject({ errorCode: WsErrorCode.BAD_REQUEST });

    socket.send({ cmds: [{ type: 'NODE_RED_TELEMETRY', cmdId: 1, ...credential, deviceId: device.id }] });
    socket.send({ cmds: [{ type: 'NODE_RED_TELEMETRY', cmdId: 2, ...credential, productId: device.deviceProfileId }] });
    expect(await socket.answer(1)).toMatchObject({ errorCode: 0, data: {} });
    expect(await socket.answer(2)).toMatchObject({ errorCode: 0, data: {} });
    await mqtt.publishAsync('v1/devices/me/telemetry', JSON.stringify({ temperature: 21 }), { qos: 1 });
    for (const cmdId of [1, 2]) {
      expect(await socket.answer(cmdId)).toMatchObject({ deviceId: device.id, data: { temperature: { value: 21 } } });
    }

    // Unsubscribed: the device's next message reaches only the product's subscription.
    socket.send({ cmds: [{ type: 'NODE_RED_TELEMETRY_UNSUBSCRIBE', cmdId: 1 }] });
    await mqtt.publishAsync('v1/devices/me/telemetry', JSON.stringify({ temperature: 22 }), { qos: 1 });
    expect(await socket.answer(2)).toMatchObject({ data: { temperature: { value: 22 } } });
    expect(socket.pending().filter((m) => m.cmdId === 1)).toEqual([]);

    // A custom TCP device's frame, in hex.
    socket.send({ cmds: [{ type: 'NODE_RED_TCP', cmdId: 3, ...credential, deviceId: meter.id }] });
    expect(await socket.answer(3)).toMatchObject({ errorCode: 0, frame: null });
    const tcp = connect({ port: t.app.services!.tcpAccess!.server.port, host: '127.0.0.1' });
    tcp.on('error', () => undefined);
    try {
      await new Promise<void>((resolve) => tcp.once('connect', () => resolve()));
      tcp.write('METER-LIVE-0001-7Q2X');
      // Registration first, then a frame: sent again until the registration has taken.
      let frame: Record<string, unknown> | null = null;
      for (let tries = 0; !frame && tries < 20; tries++) {
        tcp.write('ping');
        frame = await socket.answer(3, 1000).catch(() => null);
      }
      expect(frame).toMatchObject({ deviceId: meter.id, frame: Buffer.from('ping').toString('hex') });
      socket.send({ cmds: [{ type: 'NODE_RED_TCP_UNSUBSCRIBE', cmdId: 3 }] });
    } finally {
      tcp.destroy();
      mqtt.end(true);
    }
  });
});
