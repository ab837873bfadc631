/**
 * `POST /api/yt/configuration/cloud/test`: one MQTT CONNECT to the broker the settings name,
 * answered with its CONNACK in words. A second gateway's own broker plays the cloud: a GATEWAY
 * device's access token as the key, an empty secret.
 */
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { cloudRoutes, type CloudConfig } from '../../server/contract/cloud.ts';
import { cloudLinkRoutes } from '../../server/contract/cloud-link.ts';
import { SETUP_CODE_HEADER } from '../../server/contract/license.ts';
import { makeApp, type TestApp } from '../helpers/app.ts';
import { makeDeviceApp } from '../helpers/devices.ts';
import { expectError } from '../helpers/error-body.ts';
import { mqttUrl, tokenOf } from '../helpers/mqtt.ts';
import { setupCodeOf } from '../helpers/setup.ts';

function test(t: TestApp, body: unknown) {
  return t.app.inject({ method: 'POST', url: cloudLinkRoutes.test.url, headers: { [SETUP_CODE_HEADER]: setupCodeOf(t), 'accept-language': 'en-US' }, payload: body as Record<string, unknown> });
}

async function cloudWithGateway(): Promise<{ port: number; token: string }> {
  const cloud = await makeDeviceApp();
  const gateway = await cloud.api.createDevice({ deviceType: 'GATEWAY' });
  const port = Number(new URL(mqttUrl(cloud.app)).port);
  return { port, token: await tokenOf(cloud.api, gateway.id) };
}

function settings(port: number, platformKey: string, extra: Partial<CloudConfig> = {}): CloudConfig {
  return { platformAddress: '127.0.0.1', platformPort: port, platformKey, platformSecret: '', ...extra };
}

describe('cloud connection test', () => {
  it("answers ok with the broker's acceptance for a gateway's access token, and stores nothing", async () => {
    const { port, token } = await cloudWithGateway();
    const edge = await makeApp();
    const res = await test(edge, settings(port, token));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ ok: true, code: 0, message: 'Connected to the cloud' });
    const stored = await edge.app.inject({ method: 'GET', url: cloudRoutes.get.url, headers: { [SETUP_CODE_HEADER]: setupCodeOf(edge) } });
    expect(stored.json()).toBeNull();
  });

  it("answers the broker's refusal code in words for a key it does not know", async () => {
    const { port } = await cloudWithGateway();
    const edge = await makeApp();
    const body = (await test(edge, settings(port, 'not-a-token'))).json();
    expect(body.ok).toBe(false);
    expect([4, 5]).toContain(body.code);
    expect(body.message).toMatch(/^Refused: /);
  });

  it('answers code -1 with the reason in words for a host that does not resolve', async () => {
    const edge = await makeApp();
    const unresolved = (await test(edge, settings(1883, 'k', { platformAddress: 'no-such-host.invalid' }))).json();
    expect(unresolved).toMatchObject({ ok: false, code: -1 });
    expect(unresolved.message).toBe('Cannot reach the cloud server: the address no-such-host.invalid was not found (check the platform address)');
  });

  it('answers code -1 with the reason in words for a closed port, not Node\'s "connect ECONNREFUSED"', async () => {
    const edge = await makeApp();
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const refused = (await test(edge, settings(closedPort, 'k'))).json();
    expect(refused).toMatchObject({ ok: false, code: -1 });
    expect(refused.message).toBe(`Cannot reach the cloud server: 127.0.0.1:${closedPort} refused the connection (nothing listens on that port; check the address and port)`);
  });

  it('answers code -1 for a server that does not speak MQTT', async () => {
    const edge = await makeApp();
    const sockets: Socket[] = [];
    const notMqtt = createServer((socket) => {
      sockets.push(socket);
      socket.end('HTTP/1.1 400 Bad Request\r\n\r\n');
    });
    await new Promise<void>((resolve) => notMqtt.listen(0, '127.0.0.1', resolve));
    try {
      const answer = (await test(edge, settings((notMqtt.address() as AddressInfo).port, 'k'))).json();
      expect(answer).toMatchObject({ ok: false, code: -1, message: expect.stringMatching(/^Cannot reach the cloud server: |closed the connection/) });
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => notMqtt.close(() => resolve()));
    }
  });

  it('refuses settings the configuration refuses, and a caller without the setup code', async () => {
    const edge = await makeApp();
    expectError(await test(edge, { platformAddress: 'bad host', platformPort: 1883, platformKey: 'k', platformSecret: '' }), 400, 31, 'error.validation');
    expectError(await edge.app.inject({ method: 'POST', url: cloudLinkRoutes.test.url, payload: settings(1883, 'k') }), 401, 10, 'error.setup.codeRequired');
  });
});
