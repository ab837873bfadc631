/**
 * A share page's live updates (VIS_SHARE, a guest command of /api/ws) through a real socket
 * without sign-in and a device publishing over real MQTT: exactly the link's device/key pairs,
 * nothing of another key or device, no other command, and the socket closed when the link ends.
 */
import { describe, expect, it } from 'vitest';
import type { MqttClient } from 'mqtt';
import { WS_POLICY_VIOLATION, WsErrorCode } from '../../server/contract/realtime.ts';
import { ALARM_WIDGET_KEY, visualizationRoutes as vis, type SharedLiveUpdate, type Widget } from '../../server/contract/visualization.ts';
import { LiveClient, makeLiveApp, type LiveTestApp } from '../helpers/live.ts';
import { connectDevice, tokenOf } from '../helpers/mqtt.ts';
import { alarmsOf, createScene, makeBoilerApp, overheatScene, sendTemperature } from '../helpers/scenes.ts';
import { intType, propertyBody } from '../helpers/thing-model.ts';

interface Board {
  t: LiveTestApp;
  id: string;
  bound: string;
  other: string;
  shareToken: string;
  boundMqtt: MqttClient;
  otherMqtt: MqttClient;
}

function widget(w: Pick<Widget, 'id' | 'type' | 'binding' | 'alarmSource'>): Widget {
  return { x: 0, y: 0, w: 4, h: 3, props: {}, ...w };
}

/** A configuration binding the bound device's temperature (a value card and a switch on `power`), shared. */
async function sharedBoard(): Promise<Board> {
  const t = await makeLiveApp({ listen: true });
  const bound = (await t.api.createDevice()).id;
  const other = (await t.api.createDevice()).id;
  const layout = {
    widgets: [widget({ id: 'v', type: 'value', binding: { deviceId: bound, key: 'temperature' } }), widget({ id: 's', type: 'switch', binding: { deviceId: bound, key: 'power' } })],
  };
  const { id } = await t.api.ok(vis.create, { body: { name: 'Wall', platform: 'pc', layout } });
  const { shareToken } = await t.api.ok(vis.share, { params: { id }, body: {} });
  const boundMqtt = await connectDevice(t.app, { username: await tokenOf(t.api, bound) });
  const otherMqtt = await connectDevice(t.app, { username: await tokenOf(t.api, other) });
  return { t, id, bound, other, shareToken, boundMqtt, otherMqtt };
}

async function publish(mqtt: MqttClient, values: Record<string, unknown>): Promise<void> {
  await mqtt.publishAsync('v1/devices/me/telemetry', JSON.stringify(values), { qos: 1 });
}

/** A signed-out socket following the link on `cmdId`; resolves with its first answer. */
async function follow(b: Pick<Board, 't' | 'shareToken'>, cmdId = 1, shareToken = b.shareToken): Promise<{ ws: LiveClient; first: SharedLiveUpdate }> {
  const ws = await LiveClient.open(b.t);
  ws.send({ cmds: [{ type: 'VIS_SHARE', cmdId, shareToken }] });
  return { ws, first: await ws.answer<SharedLiveUpdate>(cmdId, 20_000) };
}

describe('share link live updates over /api/ws', () => {
  it("pushes what the bound device publishes over MQTT for the bound keys only, never another device's, and stops once unsubscribed", async () => {
    const b = await sharedBoard();
    const { ws, first } = await follow(b);
    expect(first).toMatchObject({ errorCode: 0, cmdUpdateType: 'VIS_SHARE', data: {} });

    // The other device first: a signed-in witness hears it, then the share socket must not have.
    const admin = await LiveClient.open(b.t, { token: b.t.token });
    admin.send({ cmds: [{ type: 'TIMESERIES', cmdId: 7, entityType: 'DEVICE', entityId: b.other, scope: 'LATEST_TELEMETRY', keys: 'temperature', useStrictDataTypes: true }] });
    await admin.answer(7, 20_000);
    await publish(b.otherMqtt, { temperature: 99 });
    await admin.next((m) => m.cmdId === 7 && JSON.stringify(m.data).includes('99'), 20_000);

    await publish(b.boundMqtt, { temperature: 22.5, humidity: 50 });
    const update = await ws.answer<SharedLiveUpdate>(1, 20_000);
    // The bound key only: not the bound device's humidity, not the other device.
    expect(update.data).toEqual({ [b.bound]: { temperature: { ts: expect.any(Number), value: 22.5 } } });

    // A second subscription's answer comes after anything sent before it: nothing more came on 1.
    ws.send({ cmds: [{ type: 'VIS_SHARE_UNSUBSCRIBE', cmdId: 1 }, { type: 'VIS_SHARE', cmdId: 2, shareToken: b.shareToken }] });
    expect((await ws.answer<SharedLiveUpdate>(2, 20_000)).data).toEqual({ [b.bound]: { temperature: { ts: expect.any(Number), value: 22.5 } } });
    await publish(b.boundMqtt, { temperature: 23 });
    await ws.next((m) => m.cmdId === 2 && JSON.stringify(m.data).includes('23'), 20_000);
    expect(ws.pending().filter((m) => m.cmdId === 1)).toEqual([]);
  });

  it('runs no other command on a share socket, signs no one in with the token, and answers an unknown token as not found', async () => {
    const b = await sharedBoard();
    const { ws } = await follow(b);
    ws.send({ cmds: [{ type: 'TIMESERIES', cmdId: 3, entityType: 'DEVICE', entityId: b.other, scope: 'LATEST_TELEMETRY', keys: 'temperature' }] });
    expect(await ws.answer(3, 20_000)).toMatchObject({ errorCode: WsErrorCode.UNAUTHORIZED, data: null });
    ws.send({ cmds: [{ type: 'COMMANDS', cmdId: 4, entityType: 'DEVICE', entityId: b.bound }] });
    expect(await ws.answer(4, 20_000)).toMatchObject({ errorCode: WsErrorCode.UNAUTHORIZED });
    // An authCmd on a share socket closes it: it never becomes a user's.
    ws.send({ authCmd: { cmdId: 0, token: b.t.token } });
    expect((await ws.closed).code).toBe(WS_POLICY_VIOLATION);

    // The share token as an access token, on the URL or in an authCmd, is refused.
    const asToken = await LiveClient.open(b.t, { token: b.shareToken });
    expect((await asToken.closed).code).toBe(WS_POLICY_VIOLATION);
    const asAuthCmd = await LiveClient.open(b.t);
    asAuthCmd.send({ authCmd: { cmdId: 0, token: b.shareToken } });
    expect((await asAuthCmd.closed).code).toBe(WS_POLICY_VIOLATION);

    const unknown = await follow(b, 1, 'x'.repeat(43));
    expect(unknown.first).toMatchObject({ errorCode: WsErrorCode.NOT_FOUND, data: null });
  });

  it('closes an open share socket at once when the link is revoked, and refuses the token afterwards', async () => {
    const b = await sharedBoard();
    const { ws } = await follow(b);
    await b.t.api.ok(vis.unshare, { params: { id: b.id } });
    expect((await ws.closed).code).toBe(WS_POLICY_VIOLATION);
    expect((await follow(b)).first).toMatchObject({ errorCode: WsErrorCode.NOT_FOUND });
  });

  it('closes an open share socket when the link expires', async () => {
    const b = await sharedBoard();
    // Shared again with an expiry (the new link replaces the first), once the slow setup is done.
    const { shareToken } = await b.t.api.ok(vis.share, { params: { id: b.id }, body: { expiresAt: Date.now() + 3000 } });
    const { ws } = await follow(b, 1, shareToken);
    expect((await ws.closed).code).toBe(WS_POLICY_VIOLATION);
    expect((await follow(b, 1, shareToken)).first).toMatchObject({ errorCode: WsErrorCode.NOT_FOUND });
  });

  it("sends an alarm list the active alarms of its bound device only, never another device's, and each change of them", async () => {
    const t = await makeBoilerApp();
    await createScene(t, overheatScene(t.product.id));
    const other = await t.models.createDevice({ deviceProfileId: t.product.id });
    const otherMqtt = await connectDevice(t.app, { username: await tokenOf(t.api, other.id) });
    const layout = { widgets: [widget({ id: 'a', type: 'alarms', binding: { deviceId: t.device.id, key: ALARM_WIDGET_KEY } })] };
    const { id } = await t.api.ok(vis.create, { body: { name: 'Alarms', platform: 'pc', layout } });
    const { shareToken } = await t.api.ok(vis.share, { params: { id }, body: {} });
    const b = { t, shareToken };

    const { ws, first } = await follow(b);
    expect(first).toMatchObject({ data: {}, alarms: [] });
    // Both boilers overheat; the other one first, so its alarm would have come before the bound one's.
    await otherMqtt.publishAsync('v1/devices/me/telemetry', JSON.stringify({ temperature: 95 }), { qos: 1 });
    await expect.poll(async () => (await alarmsOf(t)).length, { timeout: 20_000 }).toBe(1);
    await sendTemperature(t, 95);
    const update = await ws.next<SharedLiveUpdate>((m) => m.cmdId === 1 && Array.isArray(m.alarms) && m.alarms.length > 0, 20_000);
    expect(update.alarms).toEqual([expect.objectContaining({ deviceId: t.device.id, type: 'overheat', severity: 'CRITICAL', status: 'ACTIVE_UNACK' })]);
    expect(ws.pending().filter((m) => JSON.stringify(m).includes(other.id))).toEqual([]);

    // A page opened now gets the bound device's active alarm and nothing of the other's.
    const { first: later } = await follow(b, 2);
    expect(later.alarms).toEqual([expect.objectContaining({ deviceId: t.device.id })]);
    expect(JSON.stringify(later)).not.toContain(other.id);
    otherMqtt.end(true);
  });

  it("sends alarm lists over several devices or a product the alarms of exactly those devices, a product's device added later included, inside the configuration's organization", async () => {
    const t = await makeBoilerApp();
    const models = t.models;
    // A second product of boilers: an alarm list names it.
    const q = await models.createProduct();
    await models.createItem(propertyBody(q.id, { identifier: 'temperature', functionJson: { dataType: intType({ min: 0, max: 200 }) } }));
    await models.publish(q.id);
    await createScene(t, overheatScene(t.product.id));
    await createScene(t, overheatScene(q.id, { name: 'q_overheat' }));
    const listed = await models.createDevice({ deviceProfileId: t.product.id });
    const outside = await models.createDevice({ deviceProfileId: t.product.id });
    // The configuration belongs to one organization: the product's devices of another stay out.
    const org = await models.createOrganization();
    const otherOrg = await models.createOrganization();
    const layout = {
      widgets: [
        widget({ id: 'set', type: 'alarms', alarmSource: { deviceIds: [t.device.id, listed.id] } }),
        widget({ id: 'prod', type: 'alarms', alarmSource: { productId: q.id } }),
      ],
    };
    const { id } = await t.api.ok(vis.create, { body: { name: 'Alarm wall', platform: 'pc', organizationId: org.id, layout } });
    const { shareToken } = await t.api.ok(vis.share, { params: { id }, body: {} });
    const b = { t, shareToken };
    const { ws, first } = await follow(b);
    expect(first).toMatchObject({ alarms: [] });
    // Made after the link: the product's devices are those of each read.
    const late = await models.createDevice({ deviceProfileId: q.id, organizationId: org.id });
    const foreign = await models.createDevice({ deviceProfileId: q.id, organizationId: otherOrg.id });
    const hot = async (deviceId: string): Promise<void> => {
      const mqtt = await connectDevice(t.app, { username: await tokenOf(t.api, deviceId) });
      await mqtt.publishAsync('v1/devices/me/telemetry', JSON.stringify({ temperature: 95 }), { qos: 1 });
      mqtt.end(true);
    };

    // The devices outside the set and the organization first: their alarms exist, the socket stays silent on them.
    await hot(outside.id);
    await hot(foreign.id);
    await expect.poll(async () => (await alarmsOf(t)).length, { timeout: 20_000 }).toBe(2);
    await hot(listed.id);
    const fromSet = await ws.next<SharedLiveUpdate>((m) => m.cmdId === 1 && Array.isArray(m.alarms) && m.alarms.length > 0, 20_000);
    expect(fromSet.alarms).toEqual([expect.objectContaining({ deviceId: listed.id, widgetIds: ['set'] })]);
    await hot(late.id);
    const fromProduct = await ws.next<SharedLiveUpdate>((m) => m.cmdId === 1 && Array.isArray(m.alarms) && m.alarms.length > 0, 20_000);
    expect(fromProduct.alarms).toEqual([expect.objectContaining({ deviceId: late.id, widgetIds: ['prod'] })]);
    expect(ws.pending().filter((m) => JSON.stringify(m).includes(outside.id) || JSON.stringify(m).includes(foreign.id))).toEqual([]);

    // A page opened now gets both lists' active alarms, each naming its list, and nothing of the outside device.
    const { first: later } = await follow(b, 2);
    expect(later.alarms).toEqual(
      expect.arrayContaining([expect.objectContaining({ deviceId: listed.id, widgetIds: ['set'] }), expect.objectContaining({ deviceId: late.id, widgetIds: ['prod'] })]),
    );
    expect(later.alarms).toHaveLength(2);
    expect(JSON.stringify(later)).not.toContain(outside.id);
    expect(JSON.stringify(later)).not.toContain(foreign.id);
  });
});
