/**
 * The device location map through the built binary, with a real tile server started here (a small
 * HTTP server answering a PNG for any /tiles/z/x/y.png, as an on-site tile server would): with no
 * tile URL the location dialog has the coordinate fields alone; once the tile URL is set on the
 * system configuration page the dialog shows tiles (which the console's CSP must allow), a click
 * sets the coordinates and they are saved; an unreachable tile server is said and the fields stay.
 * Screens in zh_CN/en_US × light/dark (test-results/screenshots/device-map).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { deviceDetailPath, consolePaths } from '../../server/contract/console-paths.ts';
import type { Device } from '../../server/contract/device.ts';
import { mapRoutes } from '../../server/contract/map.ts';
import type { Product } from '../../server/contract/product.ts';
import { freePort } from '../helpers/binary.ts';
import { solidPng } from '../helpers/browser.ts';
import { startE2eGateway } from '../helpers/e2e-gateway.ts';
import { signIn, useE2eSpec } from '../helpers/e2e-spec.ts';
import { text } from '../helpers/locale-text.ts';

const land = solidPng(256, 256, [200, 225, 190]);
const sea = solidPng(256, 256, [170, 205, 235]);
const tileRequests: string[] = [];

/** Answers any /tiles/{z}/{x}/{y}.png with a PNG (a checkerboard, so tile edges show), anything else 404. */
function startTileServer(): Promise<Server> {
  const server = createServer((req, res) => {
    const m = /^\/tiles\/(\d+)\/(\d+)\/(\d+)\.png$/.exec(req.url ?? '');
    if (!m) return void res.writeHead(404).end();
    tileRequests.push(req.url ?? '');
    const odd = (Number(m[2]) + Number(m[3])) % 2 === 1;
    res.writeHead(200, { 'content-type': 'image/png' }).end(odd ? sea : land);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

let tiles: Server;
let device: Device;
let token = '';

const ctx = useE2eSpec('device-map', startE2eGateway, async ({ gateway, ui }) => {
  tiles = await startTileServer();
  const admin = await gateway.provision();
  token = (await gateway.login()).token;
  const product = await call<Product>('POST', '/api/yt/device_profile', { name: 'E2E地图产品', deviceType: 'DIRECT_CONNECTION', transportType: 'MQTT' });
  device = await call<Device>('POST', '/api/yt/device', { name: 'E2E-Map-01', deviceType: 'DIRECT_CONNECTION', deviceProfileId: product.id });
  await ui.goto('/login');
  await signIn(ui, admin);
  await ui.expectVisible('main-layout');
});

afterAll(async () => {
  await new Promise((resolve) => tiles?.close(resolve));
});

async function call<T>(method: string, url: string, body?: unknown): Promise<T> {
  const res = await fetch(`${ctx.gateway.url}${url}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const raw = await res.text();
  if (!res.ok) throw new Error(`${method} ${url} answered ${res.status}: ${raw}`);
  return (raw ? JSON.parse(raw) : undefined) as T;
}

function tileUrl(port: number): string {
  return `http://127.0.0.1:${port}/tiles/{z}/{x}/{y}.png`;
}

/** Opens the device's basic information tab and its location dialog, once the map setting is known. */
async function openLocation(): Promise<void> {
  const { ui } = ctx;
  const settings = ui.page.waitForResponse((r) => new URL(r.url()).pathname === mapRoutes.get.url);
  await ui.goto(deviceDetailPath(device.id, 'info'));
  await ui.clickTestId('device-info-location');
  await settings;
  await ui.expectVisible('location-longitude');
}

async function fieldValue(testId: string): Promise<string> {
  return ctx.ui.page.locator(`input[data-testid="${testId}"]`).inputValue();
}

describe('device location map', () => {
  it('shows the coordinate fields alone while no tile server is configured', async () => {
    const { ui } = ctx;
    await openLocation();
    await ui.expectVisible('location-map');
    await ui.expectVisible('location-latitude');
    expect(await ui.testId('location-tile-map').count()).toBe(0);
    expect(await ui.page.locator('img[data-testid="map-tile"]').count()).toBe(0);
    await ui.screenshot('location-no-tiles');
    await ui.clickTestId('location-cancel');
  });

  it('stores the tile URL on the system configuration page, refusing a malformed one', async () => {
    const { ui } = ctx;
    const port = (tiles.address() as AddressInfo).port;
    await ui.goto(`${consolePaths.systemConfiguration}?tab=storage`);
    await ui.fill('map-tile-url', 'http://127.0.0.1/tiles/{z}/{x}.png');
    await ui.clickTestId('map-save');
    await ui.expectFieldError('map-tile-url', text('zh_CN', 'errors:map.tileUrl'));
    await ui.fill('map-tile-url', tileUrl(port));
    await ui.clickTestId('map-save');
    await ui.expectPageText(text('zh_CN', 'systemConfig:map.saved'));
    expect(await call('GET', mapRoutes.get.url)).toEqual({ tileUrl: tileUrl(port) });
    await ui.screenshotMatrix('system-config-map', () => ui.expectVisible('map-tile-url'));
  });

  it('shows tiles from the tile server, and a click sets the coordinates, which are saved', async () => {
    const { ui } = ctx;
    tileRequests.length = 0;
    await openLocation();
    const tile = ui.page.locator('img[data-testid="map-tile"]').first();
    // Loaded, so the page's Content-Security-Policy let the tile server's image in.
    expect(await ui.expectImageLoaded(tile)).toBe(256);
    expect(tileRequests.some((u) => u.startsWith('/tiles/2/'))).toBe(true);
    expect(await ui.testId('location-map').count()).toBe(0);

    // A click at the centre of the view picks the point it shows (longitude 0, latitude 20).
    const view = ui.testId('location-tile-map-view');
    await ui.settle();
    await view.click(); // at the element's centre
    const longitude = Number(await fieldValue('location-longitude'));
    const latitude = Number(await fieldValue('location-latitude'));
    expect(Math.abs(longitude)).toBeLessThan(0.5);
    expect(Math.abs(latitude - 20)).toBeLessThan(0.5);
    await ui.expectVisible('location-tile-map-marker');

    // Keyboard: + zooms in, an arrow moves the view, Enter picks the centre.
    await view.focus();
    await ui.page.keyboard.press('+');
    expect(await view.getAttribute('data-zoom')).toBe('3');
    await ui.page.keyboard.press('ArrowRight');
    await ui.page.keyboard.press('Enter');
    const moved = Number(await fieldValue('location-longitude'));
    expect(moved).toBeGreaterThan(longitude);
    await ui.clickTestId('location-tile-map-zoom-out');
    expect(await view.getAttribute('data-zoom')).toBe('2');

    await ui.screenshot('location-tiles');
    await ui.clickTestId('location-submit');
    await ui.expectHidden('location-submit');
    const saved = await call<Device>('GET', `/api/yt/device/${device.id}`);
    expect(saved.longitude).toBe(moved);
    expect(Math.abs(saved.latitude! - 20)).toBeLessThan(0.5);
    await ui.expectText('device-info-position', `${saved.longitude}, ${saved.latitude}`);
    // The basic information tab shows the saved point on the map.
    await ui.expectVisible('device-info-map-marker');
    await ui.screenshotMatrix('device-info-map', () => ui.expectVisible('device-info-map-marker'));
    await ui.screenshotMatrix('location-tiles', async () => {
      await ui.clickTestId('device-info-location');
      await ui.expectImageLoaded(ui.page.locator('img[data-testid="map-tile"]').first());
      await ui.expectVisible('location-tile-map-marker');
    });
    await ui.clickTestId('location-cancel');
  });

  it('says when the tile server cannot be reached and keeps the coordinate fields', async () => {
    const { ui } = ctx;
    const closed = await freePort();
    await call('PUT', mapRoutes.save.url, { tileUrl: tileUrl(closed) });
    // The browser reports each tile it could not fetch.
    ui.allowConsoleError(new RegExp(`127\\.0\\.0\\.1:${closed}|ERR_CONNECTION_REFUSED`));
    await openLocation();
    await ui.expectText('location-tiles-failed', text('zh_CN', 'device:map.tilesFailed', { host: `127.0.0.1:${closed}` }));
    await ui.expectVisible('location-map');
    await ui.expectVisible('location-longitude');
    await ui.screenshot('location-tiles-failed');
    await ui.clickTestId('location-cancel');
  });
});
