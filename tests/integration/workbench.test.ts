import { describe, expect, it } from 'vitest';
import { workbenchRoutes, type MessageVolume, type WorkbenchSummary } from '../../server/contract/workbench.ts';
import { EventBus } from '../../server/lib/event-bus.ts';
import { makeApp } from '../helpers/app.ts';
import { ContractClient } from '../helpers/devices.ts';
import { expectError } from '../helpers/error-body.ts';
import { testLicenseKeys } from '../helpers/license.ts';
import { makeLiveApp, type LiveTestApp } from '../helpers/live.ts';
import { connectDevice, eventually, tokenOf } from '../helpers/mqtt.ts';
import { createRoleUser } from '../helpers/roles.ts';
import { signIn } from '../helpers/session.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

function received(t: { bus: EventBus }, ts: number, times = 1): void {
  for (let i = 0; i < times; i++) t.bus.emit('message.received', { deviceId: 'd1', ts, bytes: 10 });
}

function localMidnight(ts: number): number {
  const d = new Date(ts);
  d.setHours(0, 0, 0, 0);
  return d.getTime();
}

async function volume(t: LiveTestApp, query: Record<string, string | number>): Promise<MessageVolume> {
  return t.api.ok(workbenchRoutes.messages, { query });
}

describe('workbench summary', () => {
  it('counts products and devices by state, and alarms from the alarm records', async () => {
    const t = await makeLiveApp();
    const before = await t.api.ok(workbenchRoutes.summary);
    const product = await t.api.createProduct();
    await t.api.createDevice({ deviceProfileId: product.id });
    await t.api.createDevice({ deviceProfileId: product.id });
    await t.api.createDevice();
    const after: WorkbenchSummary = await t.api.ok(workbenchRoutes.summary);
    expect(after.products - before.products).toBe(2);
    expect(after.devices.total - before.devices.total).toBe(3);
    expect(after.devices.inactive - before.devices.inactive).toBe(3);
    expect(after.devices.online).toBe(0);
    expect(after.devices.offline).toBe(0);
    expect(after.alarmsAvailable).toBe(true);
    expect(after.alarms).toEqual({ total: 0, unacknowledged: 0 });
  });

  it('counts a connected device online and the messages it publishes over MQTT', async () => {
    const t = await makeLiveApp();
    const device = await t.api.createDevice();
    await t.api.createDevice();
    const mqtt = await connectDevice(t.app, { username: await tokenOf(t.api, device.id) });
    for (let i = 0; i < 3; i++) await mqtt.publishAsync('v1/devices/me/telemetry', JSON.stringify({ n: i }), { qos: 1 });
    const summary = await eventually(
      () => t.api.ok(workbenchRoutes.summary),
      (s) => s.devices.online === 1 && s.messages?.total === 3,
    );
    expect(summary.devices).toMatchObject({ total: 2, online: 1, offline: 0, inactive: 1 });
    expect(summary.messages?.today).toBe(3);
    const { buckets } = await volume(t, { range: '1h' });
    expect(buckets[buckets.length - 1]?.count).toBe(3);
    await mqtt.endAsync();
    const after = await eventually(() => t.api.ok(workbenchRoutes.summary), (s) => s.devices.offline === 1);
    expect(after.devices).toMatchObject({ online: 0, offline: 1, inactive: 1 });
  });

  it('counts device messages of today and in all', async () => {
    const t = await makeLiveApp();
    const now = Date.now();
    received(t, now, 3);
    received(t, localMidnight(now) - HOUR, 2);
    const { messages } = await t.api.ok(workbenchRoutes.summary);
    expect(messages).toEqual({ today: 3, total: 5 });
  });

  it('keeps the message counts across a restart', async () => {
    const t = await makeLiveApp();
    received(t, Date.now(), 4);
    await t.app.close();
    const again = await makeApp({ dataDir: t.dataDir, embeddedLicenseKeys: [testLicenseKeys().publicKeyPem] });
    const { token } = await signIn(again.app, t.admin.username, t.admin.password);
    const { messages } = await new ContractClient(again.app, token).ok(workbenchRoutes.summary);
    expect(messages).toEqual({ today: 4, total: 4 });
  });

  it('reports sane CPU, memory and disk figures of the gateway', async () => {
    const t = await makeLiveApp();
    for (let i = 0; i < 2; i++) {
      const system = (await t.api.ok(workbenchRoutes.summary)).system!;
      expect(system.cpu).toBeGreaterThanOrEqual(0);
      expect(system.cpu).toBeLessThanOrEqual(100);
      expect(system.memory.total).toBeGreaterThan(0);
      expect(system.memory.used).toBeGreaterThan(0);
      expect(system.memory.used).toBeLessThanOrEqual(system.memory.total);
      expect(system.disk.total).toBeGreaterThan(0);
      expect(system.disk.used).toBeLessThanOrEqual(system.disk.total);
    }
  });

  it("scopes a customer's summary to their organizations and leaves the whole gateway's messages and load out", async () => {
    const t = await makeLiveApp();
    const plant = await t.api.createOrganization();
    const product = await t.api.createProduct();
    await t.api.createDevice({ deviceProfileId: product.id, organizationId: plant.id });
    await t.api.createDevice({ deviceProfileId: product.id });
    received(t, Date.now(), 5);
    const customer = await createRoleUser(t.api, 'CUSTOMER_USER', [plant.id]);

    const mine = await customer.api.ok(workbenchRoutes.summary);
    expect(mine.devices.total).toBe(1);
    expect(mine.messages).toBeNull();
    expect(mine.system).toBeNull();
    expectError(await customer.api.call(workbenchRoutes.messages, { query: { range: '1h' } }), 403, 20, 'error.permissionDenied');

    const whole = await t.api.ok(workbenchRoutes.summary);
    expect(whole.devices.total).toBe(2);
    expect(whole.messages).not.toBeNull();
    expect(whole.system).not.toBeNull();
  });

  it('answers 401 without a token', async () => {
    const t = await makeLiveApp();
    expectError(await t.anonymous.call(workbenchRoutes.summary), 401, 10, 'error.auth.required');
    expectError(await t.anonymous.call(workbenchRoutes.messages, { query: { range: '1h' } }), 401, 10, 'error.auth.required');
  });
});

describe('message volume', () => {
  it('gives the last hour in twelve 5-minute buckets ending with the current one', async () => {
    const t = await makeLiveApp();
    const now = Date.now();
    received(t, now, 2);
    received(t, now - 10 * MINUTE, 3);
    received(t, now - 2 * HOUR, 7);
    const v = await volume(t, { range: '1h' });
    expect(v.intervalMs).toBe(5 * MINUTE);
    expect(v.buckets).toHaveLength(12);
    const holding = (ts: number) => v.buckets.find((b) => b.ts <= ts && ts < b.ts + 5 * MINUTE);
    // The current bucket is the last one (or, across a boundary since `now`, the one before it).
    expect(v.buckets.indexOf(holding(now)!)).toBeGreaterThanOrEqual(10);
    expect(holding(now)?.count).toBe(2);
    expect(holding(now - 10 * MINUTE)?.count).toBe(3);
    expect(v.buckets.reduce((sum, b) => sum + b.count, 0)).toBe(5);
    for (let i = 1; i < v.buckets.length; i++) expect(v.buckets[i]!.ts - v.buckets[i - 1]!.ts).toBe(5 * MINUTE);
  });

  it('buckets a day by 30 min, a week by 2 h and a month by days starting at local midnight', async () => {
    const t = await makeLiveApp();
    const now = Date.now();
    received(t, now - 3 * DAY, 4);
    const day = await volume(t, { range: '1d' });
    expect([day.intervalMs, day.buckets.length]).toEqual([30 * MINUTE, 48]);
    const week = await volume(t, { range: '7d' });
    expect([week.intervalMs, week.buckets.length]).toEqual([2 * HOUR, 84]);
    expect(week.buckets.reduce((sum, b) => sum + b.count, 0)).toBe(4);
    const month = await volume(t, { range: '30d' });
    expect([month.intervalMs, month.buckets.length]).toEqual([DAY, 30]);
    expect([localMidnight(now), localMidnight(Date.now())]).toContain(month.buckets[29]!.ts);
    expect(month.buckets.find((b) => b.ts === localMidnight(now - 3 * DAY))?.count).toBe(4);
  });

  it('chooses a custom interval that keeps the chart within 200 buckets', async () => {
    const t = await makeLiveApp();
    const end = Date.now();
    const start = end - 10 * DAY;
    received(t, start + HOUR, 6);
    const v = await volume(t, { range: 'custom', startTs: start, endTs: end });
    expect(v.intervalMs).toBe(2 * HOUR);
    expect(v.buckets.length).toBeLessThanOrEqual(200);
    expect(v.buckets.length).toBeGreaterThan(100);
    expect(v.buckets.reduce((sum, b) => sum + b.count, 0)).toBe(6);
    const year = await volume(t, { range: 'custom', startTs: end - 366 * DAY, endTs: end });
    expect(year.buckets.length).toBeLessThanOrEqual(200);
    const short = await volume(t, { range: 'custom', startTs: end - 30 * MINUTE, endTs: end });
    expect(short.intervalMs).toBe(MINUTE);
  });

  it('refuses a custom range without both ends, ending before it starts, or longer than 366 days', async () => {
    const t = await makeLiveApp();
    const end = Date.now();
    expectError(await t.api.call(workbenchRoutes.messages, { query: { range: 'custom', startTs: end } }), 400, 31, 'error.workbench.rangeRequired');
    expectError(
      await t.api.call(workbenchRoutes.messages, { query: { range: 'custom', startTs: end, endTs: end } }),
      400,
      31,
      'error.workbench.rangeInvalid',
    );
    expectError(
      await t.api.call(workbenchRoutes.messages, { query: { range: 'custom', startTs: end - 367 * DAY, endTs: end } }),
      400,
      31,
      'error.workbench.rangeInvalid',
    );
    expectError(await t.api.call(workbenchRoutes.messages, { query: { range: '2h' } }), 400, 31, 'error.validation');
  });
});
