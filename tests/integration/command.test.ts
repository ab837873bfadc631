import { describe, expect, it } from 'vitest';
import type { MqttClient } from 'mqtt';
import { commandRoutes, type Command, type CommandBody } from '../../server/contract/command.ts';
import type { Device } from '../../server/contract/device.ts';
import { EventBus } from '../../server/lib/event-bus.ts';
import { makeApp } from '../helpers/app.ts';
import { DeviceApi } from '../helpers/devices.ts';
import { expectError } from '../helpers/error-body.ts';
import { testLicenseKeys } from '../helpers/license.ts';
import { signIn } from '../helpers/session.ts';
import { makeLiveApp, type LiveTestApp } from '../helpers/live.ts';
import { connectDevice, eventually, tokenOf } from '../helpers/mqtt.ts';
import { param, serviceBody, propertyBody, ThingModelApi } from '../helpers/thing-model.ts';

interface RpcRequest {
  requestId: number;
  body: { id?: number; method: string; params: unknown };
}

/** An MQTT device that collects the RPC requests it receives (and answers them when told to). */
async function device(t: LiveTestApp, target: Device, answer?: (r: RpcRequest) => unknown): Promise<{ mqtt: MqttClient; requests: RpcRequest[] }> {
  const requests: RpcRequest[] = [];
  const mqtt = await connectDevice(t.app, { username: await tokenOf(t.api, target.id) });
  mqtt.on('message', (topic, payload) => {
    const match = /^v1\/devices\/me\/rpc\/request\/(\d+)$/.exec(topic);
    if (!match) return;
    const request = { requestId: Number(match[1]), body: JSON.parse(payload.toString()) as RpcRequest['body'] };
    requests.push(request);
    const reply = answer?.(request);
    if (reply === undefined) return;
    // The test may end (and close the client) before the PUBACK: that is no failure.
    mqtt.publishAsync(`v1/devices/me/rpc/response/${request.requestId}`, JSON.stringify(reply), { qos: 1 }).catch(() => undefined);
  });
  await mqtt.subscribeAsync('v1/devices/me/rpc/request/+', { qos: 1 });
  await eventually(() => t.app.services!.transport!.isOnline(target.id), (online) => online);
  return { mqtt, requests };
}

function send(t: LiveTestApp, deviceId: string, body: Partial<CommandBody> & Record<string, unknown>, lang?: string) {
  return t.api.call(commandRoutes.send, {
    params: { id: deviceId },
    body: { commandType: 'CUSTOM', callType: 'SYNC', way: 'oneway', content: '{"method":"ping"}', ...body },
    lang,
  });
}

async function records(t: LiveTestApp, deviceId: string): Promise<Command[]> {
  return (await t.api.ok(commandRoutes.list, { params: { id: deviceId }, query: { pageSize: 100 } })).items;
}

describe('commands: refusals', () => {
  it('refuses a SYNC command to an offline device, saying it is offline, and records nothing', async () => {
    const t = await makeLiveApp();
    const d = await t.api.createDevice();
    const body = expectError(await send(t, d.id, {}, 'en-US'), 400, 31, 'error.command.deviceOffline');
    expect(body.message).toBe('The current device is offline');
    expect((await send(t, d.id, {})).json().message).toBe('当前设备不在线');
    expect(await records(t, d.id)).toEqual([]);
  });

  it('refuses content that is not JSON, or JSON without a method', async () => {
    const t = await makeLiveApp();
    const d = await t.api.createDevice();
    const body = expectError(await send(t, d.id, { content: '{"method": ' }, 'en-US'), 400, 31, 'error.command.jsonInvalid');
    expect(body.message).toBe('JSON parsing failed or format verification failed');
    expect(body.details?.[0]?.field).toBe('body.content');
    expectError(await send(t, d.id, { content: '[1,2]' }), 400, 31, 'error.command.methodRequired');
    expectError(await send(t, d.id, { content: { params: {} } }), 400, 31, 'error.command.methodRequired');
    expectError(await send(t, d.id, { format: 'HEX', content: 'AA' }), 400, 31, 'error.command.formatNotAllowed');
  });

  it('checks a SERVICE call against the published thing model', async () => {
    const t = await makeLiveApp();
    const models = new ThingModelApi(t.app, t.token);
    const product = await t.api.createProduct();
    const d = await t.api.createDevice({ deviceProfileId: product.id });
    const service = (c: unknown) => send(t, d.id, { commandType: 'SERVICE', content: c as CommandBody['content'] }, 'en-US');
    expectError(await service({ method: 'setThreshold', params: { threshold: 5 } }), 400, 31, 'error.command.noThingModel');

    await models.createItem(serviceBody(product.id, { identifier: 'setThreshold', functionJson: { inputData: [param('threshold')] } }));
    await models.publish(product.id);
    const unknown = expectError(await service({ method: 'reboot2', params: {} }), 400, 31, 'error.command.serviceInvalid');
    expect(unknown.message).toContain('no such service');
    const wrongType = expectError(await service({ method: 'setThreshold', params: { threshold: 'high' } }), 400, 31, 'error.command.serviceInvalid');
    expect(wrongType.details?.[0]?.message).toContain('threshold');
    expectError(await service({ method: 'setThreshold', params: { threshold: 500 } }), 400, 31, 'error.command.serviceInvalid');
    // A valid call passes the model and then meets the offline device.
    expectError(await service({ method: 'setThreshold', params: { threshold: 5 } }), 400, 31, 'error.command.deviceOffline');
  });

  it('checks ATTRIBUTE values against writable properties of the published model', async () => {
    const t = await makeLiveApp();
    const models = new ThingModelApi(t.app, t.token);
    const product = await t.api.createProduct();
    const d = await t.api.createDevice({ deviceProfileId: product.id });
    await models.createItem(propertyBody(product.id, { identifier: 'target', accessMode: 'rw' }));
    await models.createItem(propertyBody(product.id, { identifier: 'measured', accessMode: 'r' }));
    await models.publish(product.id);
    const attr = (content: unknown) => send(t, d.id, { commandType: 'ATTRIBUTE', callType: 'ASYNC', content: content as CommandBody['content'] });
    expectError(await attr({ measured: 5 }), 400, 31, 'error.command.attributesInvalid');
    expectError(await attr({ target: 1000 }), 400, 31, 'error.command.attributesInvalid');
    expectError(await attr({}), 400, 31, 'error.command.attributesInvalid');
    const queued: Command = (await attr({ target: 50 })).json();
    expect(queued).toMatchObject({ status: 'QUEUED', content: '{"target":50}', commandType: 'ATTRIBUTE' });
  });

  it('takes ASCII or HEX text for TCP products and refuses malformed HEX', async () => {
    const t = await makeLiveApp();
    const product = await t.api.createProduct({ transportType: 'TCP', tcpProtocolType: 'CUSTOM', tcpAuthType: 'REGISTER_SEND' });
    const d = await t.api.createDevice({ deviceProfileId: product.id });
    const raw = (body: Record<string, unknown>) => send(t, d.id, { callType: 'ASYNC', ...body });
    expect((await raw({ content: '01 03 00 0a 00 01' })).json()).toMatchObject({ format: 'HEX', content: '0103000A0001', status: 'QUEUED' });
    expect((await raw({ format: 'ASCII', content: 'AT+RST' })).json()).toMatchObject({ format: 'ASCII', content: 'AT+RST' });
    expectError(await raw({ content: '01 0' }), 400, 31, 'error.command.hexInvalid');
    expectError(await raw({ content: 'ZZ' }), 400, 31, 'error.command.hexInvalid');
    expectError(await raw({ format: 'ASCII', content: 'héllo' }), 400, 31, 'error.command.asciiInvalid');
    expectError(await raw({ format: 'JSON', content: '{"method":"x"}' }), 400, 31, 'error.command.formatNotAllowed');
  });

  it('answers 404 for an unknown device and 401 without a token', async () => {
    const t = await makeLiveApp();
    expectError(await send(t, 'nope', {}), 404, 32, 'error.notFound');
    expectError(await t.api.call(commandRoutes.list, { params: { id: 'nope' } }), 404, 32, 'error.notFound');
    expectError(await t.anonymous.call(commandRoutes.list, { params: { id: 'nope' } }), 401, 10, 'error.auth.required');
  });
});

describe('commands: delivery', () => {
  it('answers a two-way SYNC call with the device response from MQTT', async () => {
    const t = await makeLiveApp();
    const d = await t.api.createDevice();
    const { requests } = await device(t, d, (r) => ({ ok: true, echo: r.body.params }));
    const res = await send(t, d.id, { way: 'twoway', content: '{"method":"getValue","params":{"pin":3}}' });
    expect(res.statusCode, res.body).toBe(200);
    const command: Command = res.json();
    expect(command).toMatchObject({
      status: 'SUCCESSFUL',
      commandType: 'CUSTOM',
      callType: 'SYNC',
      way: 'twoway',
      responseType: 'JSON',
      content: '{"method":"getValue","params":{"pin":3}}',
    });
    expect(JSON.parse(command.responseContent!)).toEqual({ ok: true, echo: { pin: 3 } });
    expect(requests).toEqual([{ requestId: command.requestId, body: { method: 'getValue', params: { pin: 3 } } }]);
    expect(await records(t, d.id)).toEqual([command]);
  });

  it('times out a two-way call the device does not answer', async () => {
    const t = await makeLiveApp();
    const d = await t.api.createDevice();
    const { requests } = await device(t, d);
    const command: Command = (await send(t, d.id, { way: 'twoway', timeoutMs: 1000 })).json();
    expect(command).toMatchObject({ status: 'TIMEOUT', responseContent: null, timeoutMs: 1000 });
    expect(requests).toHaveLength(1);
  });

  it('marks a one-way command SENT once published, and the reboot button sends reboot', async () => {
    const t = await makeLiveApp();
    const d = await t.api.createDevice();
    expectError(await t.api.call(commandRoutes.reboot, { params: { id: d.id } }), 400, 31, 'error.command.deviceOffline');
    const { requests } = await device(t, d);
    expect((await send(t, d.id, {})).json()).toMatchObject({ status: 'SENT', sentTime: expect.any(Number) });
    const reboot = await t.api.ok(commandRoutes.reboot, { params: { id: d.id } });
    expect(reboot).toMatchObject({ commandType: 'CUSTOM', way: 'oneway', status: 'SENT', content: '{"method":"reboot","params":{}}' });
    await eventually(() => requests.length, (n) => n === 2);
    expect(requests.map((r) => r.body.method)).toEqual(['ping', 'reboot']);
  });

  it('queues ASYNC commands while the device is offline and sends them when it connects', async () => {
    const t = await makeLiveApp();
    const d = await t.api.createDevice();
    const first: Command = (await send(t, d.id, { callType: 'ASYNC', content: '{"method":"a"}' })).json();
    const second: Command = (await send(t, d.id, { callType: 'ASYNC', way: 'twoway', content: '{"method":"b"}' })).json();
    expect([first.status, second.status]).toEqual(['QUEUED', 'QUEUED']);
    expect(first.expiresTime).toBeGreaterThan(first.createdTime);

    const { requests } = await device(t, d, (r) => (r.body.method === 'b' ? 'done' : undefined));
    await eventually(() => requests.map((r) => r.body.method), (m) => m.length === 2);
    expect(requests.map((r) => r.body.method)).toEqual(['a', 'b']);
    const done = await eventually(() => records(t, d.id), (list) => list.every((c) => c.status === 'SUCCESSFUL'));
    // The device subscribed at QoS 1: its PUBACK delivered the one-way command, which is all it waits for.
    expect(done.find((c) => c.id === first.id)).toMatchObject({ status: 'SUCCESSFUL', deliveredTime: expect.any(Number), respondedTime: null });
    expect(done.find((c) => c.id === second.id)).toMatchObject({ status: 'SUCCESSFUL', responseType: 'TEXT', responseContent: 'done' });
  });

  it('answers an ASYNC two-way call at once and records the answer when it comes', async () => {
    const t = await makeLiveApp();
    const d = await t.api.createDevice();
    await device(t, d, () => 42);
    const command: Command = (await send(t, d.id, { callType: 'ASYNC', way: 'twoway' })).json();
    expect(command.status).toBe('SENT');
    const answered = await eventually(() => records(t, d.id), ([c]) => c?.status === 'SUCCESSFUL');
    expect(answered[0]).toMatchObject({ responseType: 'JSON', responseContent: '42', respondedTime: expect.any(Number) });
  });

  it('expires a queued command whose time to live runs out', async () => {
    const t = await makeLiveApp();
    const d = await t.api.createDevice();
    const command: Command = (await send(t, d.id, { callType: 'ASYNC', ttlMs: 1000 })).json();
    expect(command.status).toBe('QUEUED');
    await eventually(() => records(t, d.id), ([c]) => c?.status === 'EXPIRED', 5000);
    const { requests, mqtt } = await device(t, d);
    // Something sent later still arrives: nothing expired went out before it.
    await send(t, d.id, { content: '{"method":"later"}' });
    await eventually(() => requests.length, (n) => n === 1);
    expect(requests[0]?.body.method).toBe('later');
    await mqtt.endAsync();
  });

  it('keeps queued commands and their deadlines across a restart', async () => {
    const t = await makeLiveApp();
    const d = await t.api.createDevice();
    const kept: Command = (await send(t, d.id, { callType: 'ASYNC', content: '{"method":"kept"}' })).json();
    const brief: Command = (await send(t, d.id, { callType: 'ASYNC', ttlMs: 1000, content: '{"method":"brief"}' })).json();
    await t.app.close();

    const again = await makeApp({ dataDir: t.dataDir, embeddedLicenseKeys: [testLicenseKeys().publicKeyPem], bus: new EventBus() });
    const { token } = await signIn(again.app, t.admin.username, t.admin.password);
    const restarted = { ...t, app: again.app, api: new DeviceApi(again.app, token) };
    await eventually(() => records(restarted, d.id), (list) => list.find((c) => c.id === brief.id)?.status === 'EXPIRED');
    const { requests } = await device(restarted, d);
    await eventually(() => requests.length, (n) => n === 1);
    expect(requests[0]).toMatchObject({ requestId: kept.requestId, body: { method: 'kept' } });
    const next: Command = (await send(restarted, d.id, {})).json();
    expect(next.requestId).toBeGreaterThan(brief.requestId);
  });

  it('withdraws a queued command, which then never goes out', async () => {
    const t = await makeLiveApp();
    const d = await t.api.createDevice();
    const command: Command = (await send(t, d.id, { callType: 'ASYNC', content: '{"method":"old"}' })).json();
    const withdrawn = await t.api.ok(commandRoutes.withdraw, { params: { id: d.id, commandId: command.id } });
    expect(withdrawn.status).toBe('DELETED');
    const { requests } = await device(t, d);
    await send(t, d.id, { content: '{"method":"new"}' });
    await eventually(() => requests.length, (n) => n === 1);
    expect(requests.map((r) => r.body.method)).toEqual(['new']);
    expectError(await t.api.call(commandRoutes.withdraw, { params: { id: d.id, commandId: 'nope' } }), 404, 32, 'error.notFound');
  });

  it('lists records newest first with paging and filters', async () => {
    const t = await makeLiveApp();
    const d = await t.api.createDevice();
    for (const m of ['a', 'b', 'c']) await send(t, d.id, { callType: 'ASYNC', content: { method: m } });
    const page = await t.api.ok(commandRoutes.list, { params: { id: d.id }, query: { page: 1, pageSize: 2 } });
    expect(page.total).toBe(3);
    expect(page.items.map((c) => JSON.parse(c.content).method)).toEqual(['c', 'b']);
    const queued = await t.api.ok(commandRoutes.list, { params: { id: d.id }, query: { status: 'QUEUED', commandType: 'CUSTOM' } });
    expect(queued.total).toBe(3);
    const none = await t.api.ok(commandRoutes.list, { params: { id: d.id }, query: { status: 'SUCCESSFUL' } });
    expect(none).toEqual({ items: [], total: 0 });
  });
});
