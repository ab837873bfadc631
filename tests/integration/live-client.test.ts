import { afterEach, describe, expect, it } from 'vitest';
import { WS_PATH, type EntityDataUpdate, type TelemetryUpdate, type WsUpdate } from '../../server/contract/realtime.ts';
import type { AppOptions } from '../../server/app.ts';
import { ConsoleHttp } from '../../scripts/lib/console-http.ts';
import { startSimulator, type RunningSimulator } from '../../scripts/lib/simulator.ts';
import { LiveClient } from '../../web/lib/ws-client.ts';
import { mergeEntityState, mergeLatest, unknownEntityState, type LatestValues } from '../../web/lib/use-live.ts';
import { eventually } from '../helpers/mqtt.ts';
import { makeProvisionedApp } from '../helpers/setup.ts';

const running: RunningSimulator[] = [];
const stops: (() => void)[] = [];
afterEach(async () => {
  for (const stop of stops.splice(0)) stop();
  await Promise.all(running.splice(0).map((s) => s.stop()));
});

/** A provisioned gateway listening on a free port, and its base URL. */
async function listeningGateway(tuning?: AppOptions['tuning']) {
  const t = await makeProvisionedApp({ tuning });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  if (!address || typeof address === 'string') throw new Error('no TCP address');
  return { ...t, url: `http://127.0.0.1:${address.port}` };
}

/** The console's live client on Node's own WebSocket, taking its token from `session` and refreshing it with `refresh`. */
function consoleLiveClient(url: string, session: { token: string; refreshed: number }, refresh: () => Promise<string>): LiveClient {
  return new LiveClient({
    url: () => `${url.replace(/^http/, 'ws')}${WS_PATH}`,
    token: () => session.token,
    refresh: async () => {
      session.refreshed++;
      session.token = await refresh();
      return true;
    },
    createSocket: (address) => new WebSocket(address),
    log: () => undefined,
    reconnectDelayMs: 50,
  });
}

/** The console's live client against a gateway fed by two simulated devices. */
async function setup(token?: (real: string) => string) {
  const t = await listeningGateway();
  const sim = await startSimulator({
    url: t.url,
    mqttUrl: `mqtt://127.0.0.1:${t.app.services!.transport!.mqttPort}`,
    username: t.admin.username,
    password: t.admin.password,
    devices: 2,
    rate: 10,
  });
  running.push(sim);
  const http = await ConsoleHttp.signIn(t.url, t.admin.username, t.admin.password);
  const session = { token: token ? token(http.accessToken!) : http.accessToken!, refreshed: 0 };
  const client = consoleLiveClient(t.url, session, async () => http.accessToken!);
  return { client, sim, session };
}

describe('the console live client against the gateway', () => {
  it('receives the latest telemetry of a device and then its new values', async () => {
    const { client, sim } = await setup();
    const device = sim.devices[0]!.identity;
    let values: LatestValues = {};
    const updates: WsUpdate[] = [];
    stops.push(
      client.subscribe({ type: 'TIMESERIES', entityType: 'DEVICE', entityId: device.id, scope: 'LATEST_TELEMETRY', keys: 'temperature,humidity' }, (u) => {
        updates.push(u);
        values = mergeLatest(values, u as TelemetryUpdate);
      }),
    );
    const first = await eventually(() => values.temperature?.ts ?? 0, (ts) => ts > 0, 10_000);
    await eventually(() => values.temperature?.ts ?? 0, (ts) => ts > first, 10_000);
    expect(Object.keys(values).sort()).toEqual(['humidity', 'temperature']);
    expect(updates.every((u) => u.errorCode === 0)).toBe(true);
  });

  it('follows the state of a device', async () => {
    const { client, sim } = await setup();
    let state = unknownEntityState;
    const device = sim.devices[1]!.identity;
    stops.push(
      client.subscribe(
        { type: 'ENTITY_DATA', query: { entityFilter: { type: 'singleEntity', singleEntity: { entityType: 'DEVICE', id: device.id } }, entityFields: [{ type: 'ENTITY_FIELD', key: 'deviceState' }] } },
        (u) => {
          state = mergeEntityState(state, u as EntityDataUpdate, device.id);
        },
      ),
    );
    await eventually(() => state.state, (s) => s === 'ONLINE', 10_000);
    await sim.devices[1]!.stop();
    await eventually(() => state.state, (s) => s === 'OFFLINE', 10_000);
  });

  it('refreshes the session after the gateway refuses the token, then subscribes again', async () => {
    const { client, sim, session } = await setup(() => 'not-a-token');
    const seen: WsUpdate[] = [];
    stops.push(
      client.subscribe({ type: 'TIMESERIES', entityType: 'DEVICE', entityId: sim.devices[0]!.identity.id, scope: 'LATEST_TELEMETRY' }, (u) => seen.push(u)),
    );
    await eventually(() => seen.length, (n) => n > 0, 10_000);
    expect(session.refreshed).toBe(1);
    expect(seen[0]!.errorCode).toBe(0);
  });

  it('signs in afresh when the gateway closes the socket as its token expires, and subscribes again', async () => {
    const t = await listeningGateway({ accessTokenTtlS: 3 });
    const signIn = async () => (await ConsoleHttp.signIn(t.url, t.admin.username, t.admin.password)).accessToken!;
    const session = { token: await signIn(), refreshed: 0 };
    const client = consoleLiveClient(t.url, session, signIn);
    // Each answer with the number of sign-ins the client had made when it came.
    const seen: { signIns: number; errorCode: number }[] = [];
    stops.push(
      client.subscribe({ type: 'ENTITY_COUNT', query: { entityFilter: { type: 'entityType', entityType: 'DEVICE' } } }, (u) =>
        seen.push({ signIns: session.refreshed, errorCode: u.errorCode }),
      ),
    );
    // The first token lasts at most three seconds; once it is gone the client signs in afresh and
    // its subscription is answered again. (Under load the first answer may itself come late, so
    // only the answer after the new sign-in is waited for.)
    await eventually(() => seen.filter((u) => u.signIns >= 1).length, (n) => n >= 1, 15_000);
    expect(session.refreshed).toBeGreaterThanOrEqual(1);
    expect(seen.every((u) => u.errorCode === 0)).toBe(true);
  }, 30_000);
});
