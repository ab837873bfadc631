import { describe, expect, it } from 'vitest';
import type { MqttClient } from 'mqtt';
import { authRoutes } from '../../server/contract/auth.ts';
import { deviceRoutes, type Device } from '../../server/contract/device.ts';
import {
  WS_MAX_SOCKETS_PER_USER,
  WS_MAX_SUBSCRIPTIONS,
  WS_POLICY_VIOLATION,
  WsErrorCode,
  type EntityCountUpdate,
  type EntityDataUpdate,
  type ErrorUpdate,
  type TelemetryUpdate,
} from '../../server/contract/realtime.ts';
import { userRoutes } from '../../server/contract/user.ts';
import { ContractClient } from '../helpers/devices.ts';
import { LiveClient, makeLiveApp, type LiveTestApp } from '../helpers/live.ts';
import { connectDevice, eventually, tokenOf } from '../helpers/mqtt.ts';

async function deviceOnline(t: LiveTestApp, device: Device): Promise<MqttClient> {
  return connectDevice(t.app, { username: await tokenOf(t.api, device.id) });
}

async function publish(client: MqttClient, payload: unknown): Promise<void> {
  await client.publishAsync('v1/devices/me/telemetry', JSON.stringify(payload), { qos: 1 });
}

function latestCmd(cmdId: number, entityId: string, keys?: string): Record<string, unknown> {
  return { type: 'TIMESERIES', cmdId, entityType: 'DEVICE', entityId, scope: 'LATEST_TELEMETRY', useStrictDataTypes: true, ...(keys ? { keys } : {}) };
}

/** When an access token expires (ms since the epoch), read from its claims. */
function expiryOf(token: string): number {
  const claims = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as { exp: number };
  return claims.exp * 1000;
}

/** The close of `ws` and when it came, or null when the socket is still open `ms` from now. */
function closeWithin(ws: LiveClient, ms: number): Promise<{ code: number; reason: string; at: number } | null> {
  return Promise.race([
    ws.closed.then((c) => ({ ...c, at: Date.now() })),
    new Promise<null>((resolve) => setTimeout(() => resolve(null), Math.max(ms, 0))),
  ]);
}

function deviceCountCmd(cmdId: number): Record<string, unknown> {
  return { type: 'ENTITY_COUNT', cmdId, query: { entityFilter: { type: 'entityType', entityType: 'DEVICE' } } };
}

describe('live websocket: authentication', () => {
  it('accepts the token as a query parameter and answers a latest-telemetry subscription', async () => {
    const t = await makeLiveApp({ listen: true });
    const device = await t.api.createDevice();
    const mqtt = await deviceOnline(t, device);
    await publish(mqtt, { temperature: 21.5, humidity: 40 });
    const ws = await LiveClient.open(t, { token: t.token });
    ws.send({ cmds: [latestCmd(1, device.id)] });
    const first = await ws.answer<TelemetryUpdate>(1);
    expect(first).toMatchObject({ subscriptionId: 1, errorCode: 0, errorMsg: null });
    expect(first.data?.temperature?.[0]?.[1]).toBe(21.5);
    expect(first.data?.humidity?.[0]?.[1]).toBe(40);
  });

  it('accepts a first authCmd carrying the commands with it', async () => {
    const t = await makeLiveApp({ listen: true });
    const device = await t.api.createDevice();
    const ws = await LiveClient.open(t);
    ws.send({ authCmd: { cmdId: 0, token: t.token }, cmds: [latestCmd(7, device.id)] });
    const answer = await ws.answer<TelemetryUpdate>(7);
    expect(answer).toMatchObject({ errorCode: 0, data: {} });
  });

  it('closes with 1008 for a bad query token, a bad authCmd token, or a first message without one', async () => {
    const t = await makeLiveApp({ listen: true });
    const badQuery = await LiveClient.open(t, { token: 'not-a-token' });
    expect((await badQuery.closed).code).toBe(WS_POLICY_VIOLATION);

    const badAuth = await LiveClient.open(t);
    badAuth.send({ authCmd: { cmdId: 0, token: `${t.token}x` } });
    expect((await badAuth.closed).code).toBe(WS_POLICY_VIOLATION);

    const noAuth = await LiveClient.open(t);
    noAuth.send({ cmds: [latestCmd(1, 'x')] });
    expect((await noAuth.closed).code).toBe(WS_POLICY_VIOLATION);

    const garbageFirst = await LiveClient.open(t);
    garbageFirst.send('{nope');
    expect((await garbageFirst.closed).code).toBe(WS_POLICY_VIOLATION);
  });

  it("closes a user's sockets with 1008 on logout and on a password change", async () => {
    const t = await makeLiveApp({ listen: true });
    const ws = await LiveClient.open(t, { token: t.token });
    await t.api.ok(authRoutes.logout);
    expect((await ws.closed).code).toBe(WS_POLICY_VIOLATION);

    const { token } = await t.anonymous.ok(authRoutes.login, { body: { username: t.admin.username, password: t.admin.password } });
    const again = await LiveClient.open(t, { token });
    const me = await new ContractClient(t.app, token).ok(userRoutes.me);
    await new ContractClient(t.app, token).ok(userRoutes.resetPassword, {
      body: { userId: me.userId, password: t.admin.password, resetPassword: 'Another#Pass9' },
    });
    expect((await again.closed).code).toBe(WS_POLICY_VIOLATION);
  });

  it('closes with 1008 as soon as its access token expires', async () => {
    // Three seconds leave time to open the socket before the token (whole seconds) expires.
    const t = await makeLiveApp({ listen: true, tuning: { accessTokenTtlS: 3 } });
    const expiresAt = expiryOf(t.token);
    const ws = await LiveClient.open(t, { token: t.token });
    ws.send({ cmds: [deviceCountCmd(1)] });
    expect(await ws.answer(1)).toMatchObject({ errorCode: 0 });
    const closed = await closeWithin(ws, expiresAt - Date.now() + 1000);
    expect(closed).toMatchObject({ code: WS_POLICY_VIOLATION, reason: 'token expired' });
    expect(closed!.at).toBeGreaterThanOrEqual(expiresAt);
  });

  it('stays open past the expiry of its first token once an authCmd brings a fresh one, and closes when that one expires', async () => {
    const t = await makeLiveApp({ listen: true, tuning: { accessTokenTtlS: 3 } });
    const firstExpiry = expiryOf(t.token);
    const ws = await LiveClient.open(t, { token: t.token });
    // A token issued one second later expires one second later.
    await new Promise((resolve) => setTimeout(resolve, Math.max(firstExpiry - 2000 - Date.now(), 0)));
    const { token } = await t.anonymous.ok(authRoutes.token, { body: { refreshToken: t.refreshToken } });
    const secondExpiry = expiryOf(token);
    expect(secondExpiry).toBeGreaterThan(firstExpiry);
    ws.send({ authCmd: { cmdId: 0, token }, cmds: [deviceCountCmd(1)] });
    expect(await ws.answer(1)).toMatchObject({ errorCode: 0 });

    expect(await closeWithin(ws, firstExpiry - Date.now() + 300)).toBeNull();
    ws.send({ cmds: [deviceCountCmd(2)] });
    expect(await ws.answer(2)).toMatchObject({ errorCode: 0 });
    const closed = await closeWithin(ws, secondExpiry - Date.now() + 1000);
    expect(closed).toMatchObject({ code: WS_POLICY_VIOLATION, reason: 'token expired' });
    expect(closed!.at).toBeGreaterThanOrEqual(secondExpiry);
  });

  it(`refuses a user's socket beyond ${WS_MAX_SOCKETS_PER_USER}`, async () => {
    const t = await makeLiveApp({ listen: true });
    const open: LiveClient[] = [];
    for (let i = 0; i < WS_MAX_SOCKETS_PER_USER; i++) open.push(await LiveClient.open(t, { token: t.token }));
    const extra = await LiveClient.open(t, { token: t.token });
    expect(await extra.closed).toMatchObject({ code: WS_POLICY_VIOLATION, reason: 'too many connections' });
    // The others still work.
    open[0]!.send({ cmds: [{ type: 'ENTITY_COUNT', cmdId: 1, query: { entityFilter: { type: 'entityType', entityType: 'DEVICE' } } }] });
    expect(await open[0]!.answer<EntityCountUpdate>(1)).toMatchObject({ errorCode: 0, count: 0 });
  });
});

describe('live websocket: refusals keep the socket open', () => {
  it('answers errorCode 23 to a message that is not JSON', async () => {
    const t = await makeLiveApp({ listen: true });
    const device = await t.api.createDevice();
    const ws = await LiveClient.open(t, { token: t.token, lang: 'en-US' });
    ws.send('{"cmds": [');
    const error = await ws.next<ErrorUpdate>();
    expect(error).toMatchObject({ errorCode: WsErrorCode.PARSE_ERROR, errorMsg: 'The message could not be parsed as JSON' });
    ws.send({ cmds: [latestCmd(2, device.id)] });
    expect(await ws.answer(2)).toMatchObject({ errorCode: 0 });
  });

  it('refuses eleven commands in one message and accepts ten', async () => {
    const t = await makeLiveApp({ listen: true });
    const device = await t.api.createDevice();
    const ws = await LiveClient.open(t, { token: t.token, lang: 'en-US' });
    ws.send({ cmds: Array.from({ length: 11 }, (_, i) => latestCmd(i + 1, device.id)) });
    const error = await ws.next<ErrorUpdate>();
    expect(error).toMatchObject({ cmdId: 0, errorCode: WsErrorCode.LIMIT_EXCEEDED, errorMsg: 'At most 10 commands per message' });
    ws.send({ tsSubCmds: Array.from({ length: 10 }, (_, i) => latestCmd(i + 1, device.id)) });
    for (let i = 1; i <= 10; i++) expect(await ws.answer(i)).toMatchObject({ errorCode: 0 });
  });

  it('answers unknown, unsupported and malformed commands with an error on their cmdId', async () => {
    const t = await makeLiveApp({ listen: true });
    const ws = await LiveClient.open(t, { token: t.token, lang: 'en-US' });
    ws.send({
      cmds: [
        { type: 'FOO', cmdId: 1 },
        { type: 'ALARM_COUNT', cmdId: 2, query: { statusList: ['OPEN'] } },
        { type: 'TIMESERIES', cmdId: 3, entityId: 'x', limit: 'many' },
        latestCmd(4, 'no-such-device'),
      ],
    });
    expect(await ws.answer<ErrorUpdate>(1)).toMatchObject({ errorCode: WsErrorCode.BAD_REQUEST, errorMsg: 'Unknown command type FOO' });
    const badAlarmCount = await ws.answer<ErrorUpdate>(2);
    expect(badAlarmCount).toMatchObject({ errorCode: WsErrorCode.BAD_REQUEST, cmdUpdateType: 'ALARM_COUNT_DATA' });
    expect(badAlarmCount.errorMsg).toMatch(/^Malformed ALARM_COUNT command: query/);
    const malformed = await ws.answer<ErrorUpdate>(3);
    expect(malformed.errorCode).toBe(WsErrorCode.BAD_REQUEST);
    expect(malformed.errorMsg).toMatch(/^Malformed TIMESERIES command: limit/);
    expect(await ws.answer<ErrorUpdate>(4)).toMatchObject({ errorCode: WsErrorCode.NOT_FOUND, errorMsg: 'Device no-such-device does not exist' });
  });

  it(`refuses a subscription beyond ${WS_MAX_SUBSCRIPTIONS} on one socket`, async () => {
    const t = await makeLiveApp({ listen: true });
    const device = await t.api.createDevice();
    const ws = await LiveClient.open(t, { token: t.token });
    for (let batch = 0; batch < WS_MAX_SUBSCRIPTIONS / 10; batch++) {
      ws.send({ cmds: Array.from({ length: 10 }, (_, i) => latestCmd(batch * 10 + i + 1, device.id)) });
    }
    for (let i = 1; i <= WS_MAX_SUBSCRIPTIONS; i++) expect(await ws.answer(i)).toMatchObject({ errorCode: 0 });
    ws.send({ cmds: [latestCmd(WS_MAX_SUBSCRIPTIONS + 1, device.id), latestCmd(1, device.id)] });
    expect(await ws.answer(WS_MAX_SUBSCRIPTIONS + 1)).toMatchObject({ errorCode: WsErrorCode.LIMIT_EXCEEDED });
    // Re-using a cmdId replaces that subscription and is not one more.
    expect(await ws.answer(1)).toMatchObject({ errorCode: 0 });
  });

  it('closes a socket that sends more than 64 KB in one message', async () => {
    const t = await makeLiveApp({ listen: true });
    const ws = await LiveClient.open(t, { token: t.token });
    ws.send(JSON.stringify({ cmds: [], pad: 'x'.repeat(65 * 1024) }));
    expect((await ws.closed).code).toBe(1009);
  });
});

describe('live websocket: telemetry', () => {
  it('pushes values a device publishes over MQTT, only for the keys asked', async () => {
    const t = await makeLiveApp({ listen: true });
    const device = await t.api.createDevice();
    const mqtt = await deviceOnline(t, device);
    const ws = await LiveClient.open(t, { token: t.token });
    ws.send({ cmds: [latestCmd(1, device.id, 'temperature')] });
    await ws.answer(1);
    await publish(mqtt, { ts: 1_700_000_000_000, values: { temperature: 22, humidity: 50 } });
    const update = await ws.answer<TelemetryUpdate>(1);
    expect(update.data).toEqual({ temperature: [[1_700_000_000_000, 22]] });
    expect(update.latestValues).toEqual({ temperature: 1_700_000_000_000 });
  });

  it('stops pushing after an unsubscribe, in both forms', async () => {
    const t = await makeLiveApp({ listen: true });
    const device = await t.api.createDevice();
    const ws = await LiveClient.open(t, { token: t.token });
    ws.send({ cmds: [latestCmd(1, device.id), latestCmd(2, device.id)] });
    await ws.answer(1);
    await ws.answer(2);
    ws.send({ cmds: [{ type: 'TIMESERIES', cmdId: 1, unsubscribe: true }, { type: 'TIMESERIES_UNSUBSCRIBE', cmdId: 2 }, latestCmd(3, device.id)] });
    await ws.answer(3);
    t.bus.emit('telemetry.stored', { deviceId: device.id, deviceProfileId: device.deviceProfileId, entries: [{ ts: 5, key: 'a', value: 1 }] });
    expect((await ws.answer<TelemetryUpdate>(3)).data).toEqual({ a: [[5, 1]] });
    expect(ws.pending()).toEqual([]);
    expect(t.app.services?.realtime?.stats()).toMatchObject({ sockets: 1, subscriptions: 1 });
  });

  it('sends a window of history first, oldest first, then raw values as they come', async () => {
    const t = await makeLiveApp({ listen: true });
    const device = await t.api.createDevice();
    const mqtt = await deviceOnline(t, device);
    const now = Date.now();
    await publish(mqtt, [1, 2, 3].map((i) => ({ ts: now - 1000 * (4 - i), values: { speed: i } })));
    await publish(mqtt, { ts: now - 3_600_000, values: { speed: 99 } });
    const ws = await LiveClient.open(t, { token: t.token });
    ws.send({ cmds: [{ type: 'TIMESERIES', cmdId: 1, entityType: 'DEVICE', entityId: device.id, keys: 'speed', timeWindow: 60_000, useStrictDataTypes: true }] });
    const history = await ws.answer<TelemetryUpdate>(1);
    expect(history.data?.speed?.map(([, v]) => v)).toEqual([1, 2, 3]);
    await publish(mqtt, { speed: 4 });
    expect((await ws.answer<TelemetryUpdate>(1)).data?.speed?.map(([, v]) => v)).toEqual([4]);
  });

  it('aggregates a window in buckets and recomputes the bucket new values fall into', async () => {
    const t = await makeLiveApp({ listen: true });
    const device = await t.api.createDevice();
    const mqtt = await deviceOnline(t, device);
    const start = Date.now() - 10_000;
    await publish(mqtt, [
      { ts: start + 1000, values: { load: 10 } },
      { ts: start + 2000, values: { load: 20 } },
    ]);
    const ws = await LiveClient.open(t, { token: t.token });
    ws.send({
      cmds: [{ type: 'TIMESERIES', cmdId: 1, entityId: device.id, keys: 'load', startTs: start, timeWindow: 3_600_000, interval: 3_600_000, agg: 'AVG', useStrictDataTypes: true }],
    });
    expect((await ws.answer<TelemetryUpdate>(1)).data?.load?.map(([, v]) => v)).toEqual([15]);
    await publish(mqtt, { ts: start + 3000, values: { load: 60 } });
    expect((await ws.answer<TelemetryUpdate>(1)).data?.load?.map(([, v]) => v)).toEqual([30]);
  });

  it('answers a history command once, with the range asked', async () => {
    const t = await makeLiveApp({ listen: true });
    const device = await t.api.createDevice();
    const mqtt = await deviceOnline(t, device);
    await publish(mqtt, [1, 2, 3, 4].map((i) => ({ ts: 1000 * i, values: { v: i } })));
    const ws = await LiveClient.open(t, { token: t.token });
    ws.send({ historyCmds: [{ cmdId: 5, entityType: 'DEVICE', entityId: device.id, keys: 'v', startTs: 2000, endTs: 4000, limit: 10, useStrictDataTypes: true }] });
    const answer = await ws.answer<TelemetryUpdate>(5);
    expect(answer.data).toEqual({ v: [[2000, 2], [3000, 3]] });
    expect(answer.cmdUpdateType).toBe('TIMESERIES_HISTORY');
  });

  it('forgets the subscriptions of a socket that goes away', async () => {
    const t = await makeLiveApp({ listen: true });
    const device = await t.api.createDevice();
    const ws = await LiveClient.open(t, { token: t.token });
    ws.send({ cmds: [latestCmd(1, device.id), { type: 'ENTITY_DATA', cmdId: 2, query: { entityFilter: { type: 'singleEntity', singleEntity: { entityType: 'DEVICE', id: device.id } } } }] });
    await ws.answer(1);
    await ws.answer(2);
    expect(t.app.services?.realtime?.stats()).toEqual({ sockets: 1, subscriptions: 2, devices: 1 });
    ws.socket.terminate();
    await eventually(() => t.app.services!.realtime!.stats(), (s) => s.sockets === 0);
    expect(t.app.services?.realtime?.stats()).toEqual({ sockets: 0, subscriptions: 0, devices: 0 });
  });
});

describe('live websocket: entities and attributes', () => {
  it('answers entity data with fields and latest values, then pushes state changes and telemetry', async () => {
    const t = await makeLiveApp({ listen: true });
    const device = await t.api.createDevice({ alias: 'Boiler' });
    const ws = await LiveClient.open(t, { token: t.token });
    ws.send({
      cmds: [
        {
          type: 'ENTITY_DATA',
          cmdId: 1,
          query: {
            entityFilter: { type: 'entityList', entityType: 'DEVICE', entityList: [device.id, 'gone'] },
            entityFields: [{ type: 'ENTITY_FIELD', key: 'name' }, { type: 'ENTITY_FIELD', key: 'alias' }],
            latestValues: [{ type: 'TIME_SERIES', key: 'temperature' }, { type: 'ATTRIBUTE', key: 'active' }],
          },
        },
      ],
    });
    const first = await ws.answer<EntityDataUpdate>(1);
    expect(first.data?.totalElements).toBe(1);
    expect(first.data?.data[0]).toMatchObject({
      entityId: { entityType: 'DEVICE', id: device.id },
      latest: {
        ENTITY_FIELD: { name: { value: device.name }, alias: { value: 'Boiler' }, deviceState: { value: 'INACTIVE' } },
        TIME_SERIES: {},
        ATTRIBUTE: { active: { value: false } },
      },
    });

    const mqtt = await deviceOnline(t, device);
    const online = await ws.answer<EntityDataUpdate>(1);
    expect(online.update?.[0]?.latest).toMatchObject({ ENTITY_FIELD: { deviceState: { value: 'ONLINE' } }, ATTRIBUTE: { active: { value: true } } });

    await publish(mqtt, { temperature: 30, other: 1 });
    const telemetry = await ws.answer<EntityDataUpdate>(1);
    expect(telemetry.update?.[0]?.latest).toEqual({ TIME_SERIES: { temperature: { ts: expect.any(Number), value: 30 } } });

    await mqtt.endAsync();
    const offline = await ws.answer<EntityDataUpdate>(1);
    expect(offline.update?.[0]?.latest).toMatchObject({ ENTITY_FIELD: { deviceState: { value: 'OFFLINE' } }, ATTRIBUTE: { active: { value: false } } });
  });

  it('answers server attributes and pushes the device going online', async () => {
    const t = await makeLiveApp({ listen: true });
    const device = await t.api.createDevice();
    const ws = await LiveClient.open(t, { token: t.token });
    ws.send({ attrSubCmds: [{ cmdId: 3, entityType: 'DEVICE', entityId: device.id, scope: 'SERVER_SCOPE', keys: 'active,deviceState', useStrictDataTypes: true }] });
    const first = await ws.answer<TelemetryUpdate>(3);
    expect(first.data).toEqual({ active: [[expect.any(Number), false]], deviceState: [[expect.any(Number), 'INACTIVE']] });
    await deviceOnline(t, device);
    const online = await ws.answer<TelemetryUpdate>(3);
    expect(online.data).toEqual({ active: [[expect.any(Number), true]], deviceState: [[expect.any(Number), 'ONLINE']] });
  });

  it('counts devices and counts again when devices come and go', async () => {
    const t = await makeLiveApp({ listen: true });
    const ws = await LiveClient.open(t, { token: t.token });
    ws.send({ cmds: [{ type: 'ENTITY_COUNT', cmdId: 9, query: { entityFilter: { type: 'entityType', entityType: 'DEVICE' } } }] });
    expect(await ws.answer<EntityCountUpdate>(9)).toMatchObject({ count: 0, cmdUpdateType: 'COUNT_DATA' });
    const device = await t.api.createDevice();
    expect(await ws.answer<EntityCountUpdate>(9)).toMatchObject({ count: 1 });
    await t.api.ok(deviceRoutes.delete, { body: { ids: [device.id] } });
    expect(await ws.answer<EntityCountUpdate>(9)).toMatchObject({ count: 0 });
  });
});
