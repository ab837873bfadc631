import { describe, expect, it } from 'vitest';
import { commandRoutes } from '../../server/contract/command.ts';
import { deviceRoutes } from '../../server/contract/device.ts';
import { telemetryRoutes } from '../../server/contract/telemetry.ts';
import { visualizationRoutes as vis, type Layout, type VisualizationBody, type Widget } from '../../server/contract/visualization.ts';
import { makeDeviceApp, type DeviceTestApp } from '../helpers/devices.ts';
import { expectError } from '../helpers/error-body.ts';
import { eventually, tokenOf } from '../helpers/mqtt.ts';
import { multipart } from '../helpers/multipart.ts';

function widget(w: Partial<Widget> & Pick<Widget, 'id' | 'type'>): Widget {
  return { x: 0, y: 0, w: 4, h: 3, props: {}, ...w };
}

function body(layout: Layout, extra: Partial<VisualizationBody> = {}): VisualizationBody {
  return { name: 'Boiler room', platform: 'pc', layout, ...extra };
}

/** Posts telemetry through the device HTTP API and waits until it is the device's latest. */
async function report(t: DeviceTestApp, deviceId: string, values: Record<string, number>): Promise<void> {
  const token = await tokenOf(t.api, deviceId);
  const res = await t.app.inject({ method: 'POST', url: `/api/v1/${token}/telemetry`, payload: { ts: Date.now() - 1000, values } });
  expect(res.statusCode, res.body).toBe(200);
  const key = Object.keys(values)[0]!;
  await eventually(
    () => t.api.ok(telemetryRoutes.timeseries, { params: { id: deviceId }, query: { keys: key } }),
    (v) => (v[key]?.length ?? 0) > 0,
    20_000,
  );
}

/** Uploads through the console's upload (type by content, size limit) as the administrator; its address. */
async function uploadImage(t: DeviceTestApp, filename: string, content: Buffer): Promise<string> {
  const form = multipart({ file: { filename, content } });
  const res = await t.app.inject({ method: 'POST', url: '/api/yt/oss/upload', headers: { ...form.headers, authorization: `Bearer ${t.api.token}` }, payload: form.payload });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { fileStaticUri: string }).fileStaticUri;
}

describe('visualization configurations', () => {
  it('creates, lists by platform and template, saves and deletes a configuration', async () => {
    const t = await makeDeviceApp();
    const device = await t.api.createDevice();
    const layout: Layout = { widgets: [widget({ id: 'w1', type: 'value', binding: { deviceId: device.id, key: 'temperature' }, props: { title: 'Temp' } })] };
    const created = await t.api.ok(vis.create, { body: body(layout) });
    expect(created).toMatchObject({ name: 'Boiler room', platform: 'pc', template: false, shared: false, layout });
    await t.api.ok(vis.create, { body: body({ widgets: [] }, { name: 'Phone tpl', platform: 'phone', template: true }) });

    const pcs = await t.api.ok(vis.list, { query: { platform: 'pc' } });
    expect(pcs.items.map((v) => v.id)).toEqual([created.id]);
    expect(pcs.items[0]).not.toHaveProperty('layout');
    expect((await t.api.ok(vis.list, { query: { template: true } })).items.map((v) => v.name)).toEqual(['Phone tpl']);

    const saved = await t.api.ok(vis.update, { body: { ...body({ widgets: [] }, { name: 'Renamed' }), id: created.id } });
    expect(saved).toMatchObject({ id: created.id, name: 'Renamed', layout: { widgets: [] } });
    expect(await t.api.ok(vis.delete, { body: { ids: [created.id, 'unknown'] } })).toEqual({ deleted: 1 });
    expectError(await t.api.call(vis.get, { params: { id: created.id } }), 404, 32, 'error.notFound');
  });

  it('refuses an unknown widget type, a widget outside the grid, an oversized layout and a binding to a device that does not exist', async () => {
    const t = await makeDeviceApp();
    const badType = await t.api.call(vis.create, { body: body({ widgets: [{ ...widget({ id: 'a', type: 'value' }), type: 'clock' }] } as unknown as Layout) });
    expect(expectError(badType, 400, 31, 'error.field.choice').details?.[0]?.field).toBe('body.layout.widgets.0.type');
    const outside = await t.api.call(vis.create, { body: body({ widgets: [widget({ id: 'a', type: 'text', x: 24 })] }) });
    expect(expectError(outside, 400, 31, 'error.validation').details?.[0]?.field).toBe('body.layout.widgets.0.x');
    const big = { widgets: Array.from({ length: 40 }, (_, i) => widget({ id: `t${i}`, type: 'text', props: { text: 'x'.repeat(2000) } })) };
    expectError(await t.api.call(vis.create, { body: body(big) }), 400, 31, 'error.visualization.layoutTooLarge');
    const ghost = await t.api.call(vis.create, { body: body({ widgets: [widget({ id: 'g', type: 'value', binding: { deviceId: 'no-such-device', key: 'temperature' } })] }) });
    const error = expectError(ghost, 400, 31, 'error.visualization.deviceUnknown');
    expect(error.details?.[0]?.field).toBe('body.layout.widgets.0.binding.deviceId');
    // An alarm list naming several devices or a product: each must exist.
    const known = (await t.api.createDevice()).id;
    const list = await t.api.call(vis.create, { body: body({ widgets: [{ ...widget({ id: 'l', type: 'alarms' }), alarmSource: { deviceIds: [known, 'no-such-device'] } }] }) });
    expect(expectError(list, 400, 31, 'error.visualization.deviceUnknown').details?.[0]?.field).toBe('body.layout.widgets.0.alarmSource.deviceIds.1');
    const product = await t.api.call(vis.create, { body: body({ widgets: [{ ...widget({ id: 'p', type: 'alarms' }), alarmSource: { productId: 'no-such-product' } }] }) });
    expect(expectError(product, 400, 31, 'error.visualization.productUnknown').details?.[0]?.field).toBe('body.layout.widgets.0.alarmSource.productId');
  });

  it('shows in an image widget only a file uploaded to the gateway, never an address elsewhere', async () => {
    const t = await makeDeviceApp();
    for (const src of ['https://tracker.example/pixel.png', 'javascript:alert(1)', '/api/yt/oss/files/../../etc/passwd', 42]) {
      const res = await t.api.call(vis.create, { body: body({ widgets: [widget({ id: 'i', type: 'image', props: { title: 'Logo', src } })] }) });
      expect(expectError(res, 400, 31, 'error.visualization.imageSource').details?.[0]?.field).toBe('body.layout.widgets.0.props.src');
    }
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
    const fileStaticUri = await uploadImage(t, 'logo.png', png);
    const created = await t.api.ok(vis.create, { body: body({ widgets: [widget({ id: 'i', type: 'image', props: { src: fileStaticUri } })] }) });
    expect(created.layout.widgets[0]?.props.src).toBe(fileStaticUri);
    // A shared page shows it without sign-in: the upload store's files are public.
    expect((await t.app.inject({ method: 'GET', url: fileStaticUri })).statusCode).toBe(200);
  });

  it('still opens a configuration whose bound device was deleted later', async () => {
    const t = await makeDeviceApp();
    const device = await t.api.createDevice();
    const created = await t.api.ok(vis.create, { body: body({ widgets: [widget({ id: 'w', type: 'value', binding: { deviceId: device.id, key: 'temperature' } })] }) });
    await t.api.ok(deviceRoutes.delete, { body: { ids: [device.id] } });
    expect((await t.api.ok(vis.get, { params: { id: created.id } })).layout.widgets[0]?.binding?.deviceId).toBe(device.id);
    const link = await t.api.ok(vis.share, { params: { id: created.id }, body: {} });
    expect(await t.anonymous.ok(vis.sharedLatest, { params: { shareToken: link.shareToken } })).toEqual({});
  });
});

describe('visualization share links', () => {
  async function sharedBoard(): Promise<{ t: DeviceTestApp; bound: string; other: string; id: string; shareToken: string }> {
    const t = await makeDeviceApp();
    const bound = (await t.api.createDevice()).id;
    const other = (await t.api.createDevice()).id;
    await report(t, bound, { temperature: 21.5, humidity: 40 });
    await report(t, other, { temperature: 99 });
    const layout: Layout = {
      widgets: [
        widget({ id: 'v', type: 'value', binding: { deviceId: bound, key: 'temperature' } }),
        widget({ id: 'c', type: 'chart', x: 4, binding: { deviceId: bound, key: 'temperature' } }),
        widget({ id: 's', type: 'switch', x: 8, binding: { deviceId: bound, key: 'power' }, props: { command: 'setPower' } }),
      ],
    };
    const { id } = await t.api.ok(vis.create, { body: body(layout) });
    const link = await t.api.ok(vis.share, { params: { id }, body: {} });
    expect(link.url).toBe(`/visualization/share/${link.shareToken}`);
    expect(Buffer.from(link.shareToken, 'base64url').length).toBeGreaterThanOrEqual(32);
    return { t, bound, other, id, shareToken: link.shareToken };
  }

  it('reads its layout and the latest values of its bindings without sign-in, and nothing else', async () => {
    const { t, bound, other, shareToken } = await sharedBoard();
    const shared = await t.anonymous.ok(vis.shared, { params: { shareToken } });
    expect(shared).toMatchObject({ name: 'Boiler room', platform: 'pc' });
    expect(shared.layout.widgets.map((w) => w.id)).toEqual(['v', 'c', 's']);

    const latest = await t.anonymous.ok(vis.sharedLatest, { params: { shareToken } });
    // The bound key only: not the bound device's humidity, not the other device at all.
    expect(latest).toEqual({ [bound]: { temperature: { ts: expect.any(Number), value: 21.5 } } });
    expect(latest).not.toHaveProperty(other);

    const history = await t.anonymous.ok(vis.sharedHistory, { params: { shareToken }, query: { deviceId: bound, key: 'temperature', startTs: 0 } });
    expect(history.map((p) => p.value)).toEqual([21.5]);
    for (const query of [
      { deviceId: bound, key: 'humidity', startTs: 0 },
      { deviceId: other, key: 'temperature', startTs: 0 },
      // Bound by a switch, not by a chart: no history.
      { deviceId: bound, key: 'power', startTs: 0 },
    ]) {
      expectError(await t.anonymous.call(vis.sharedHistory, { params: { shareToken }, query }), 404, 32, 'error.visualization.shareNotFound');
    }
  });

  it('opens no other API and sends no commands when presented as a bearer token', async () => {
    const { t, bound, shareToken } = await sharedBoard();
    const headers = { authorization: `Bearer ${shareToken}` };
    const asShare = (method: 'GET' | 'POST', url: string, payload?: object) => t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
    expect((await asShare('GET', `/api/plugins/telemetry/DEVICE/${bound}/values/timeseries?keys=humidity`)).statusCode).toBe(401);
    expect((await asShare('GET', '/api/yt/visualization')).statusCode).toBe(401);
    expect((await asShare('GET', `/api/yt/device/${bound}`)).statusCode).toBe(401);
    const command = await t.app.inject({ method: 'POST', url: commandRoutes.send.url.replace(':id', bound), headers, payload: { commandType: 'ATTRIBUTE', content: { power: true } } });
    expect(command.statusCode).toBe(401);
  });

  it('is refused with 404 and the error body once revoked, and a new link replaces the old one', async () => {
    const { t, id, shareToken } = await sharedBoard();
    expect((await t.api.ok(vis.get, { params: { id } })).shared).toBe(true);
    const again = await t.api.ok(vis.share, { params: { id }, body: {} });
    expectError(await t.anonymous.call(vis.shared, { params: { shareToken } }), 404, 32, 'error.visualization.shareNotFound');
    await t.anonymous.ok(vis.shared, { params: { shareToken: again.shareToken } });
    await t.api.ok(vis.unshare, { params: { id } });
    expectError(await t.anonymous.call(vis.shared, { params: { shareToken: again.shareToken } }), 404, 32, 'error.visualization.shareNotFound');
    expectError(await t.anonymous.call(vis.sharedLatest, { params: { shareToken: again.shareToken } }), 404, 32, 'error.visualization.shareNotFound');
    expect((await t.api.ok(vis.get, { params: { id } })).shared).toBe(false);
  });

  it('is refused with 404 after it expires, and refuses an expiry in the past', async () => {
    const { t, id } = await sharedBoard();
    expectError(await t.api.call(vis.share, { params: { id }, body: { expiresAt: Date.now() - 1000 } }), 400, 31, 'error.visualization.expiresInPast');
    const expiresAt = Date.now() + 1500;
    const link = await t.api.ok(vis.share, { params: { id }, body: { expiresAt } });
    expect(link.expiresAt).toBe(expiresAt);
    await eventually(
      () => t.anonymous.call(vis.shared, { params: { shareToken: link.shareToken } }),
      (res) => res.statusCode !== 200,
      20_000,
    );
    expectError(await t.anonymous.call(vis.shared, { params: { shareToken: link.shareToken } }), 404, 32, 'error.visualization.shareNotFound');
  });

  it('slows an address that keeps trying unknown tokens with 429, without touching other addresses', async () => {
    const { t, shareToken } = await sharedBoard();
    const from = (remoteAddress: string, token: string) => t.app.inject({ method: 'GET', url: `/api/yt/visualization/share/${token}`, remoteAddress });
    for (let i = 0; i < 20; i++) expect((await from('10.0.0.7', `guess${i}`)).statusCode).toBe(404);
    expectError(await from('10.0.0.7', shareToken), 429, 33, 'error.visualization.shareRateLimited');
    expect((await from('10.0.0.8', shareToken)).statusCode).toBe(200);
  });
});
