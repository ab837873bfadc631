/**
 * Soft gateway (server/contract/node-red.ts) with the real node-red package: instances are child
 * processes reached only through the gateway's proxy with a ticket. One instance is reused through
 * the long case: Node-RED takes seconds to boot on a loaded machine.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { NodeRedInstance, NodeRedSnapshotPage } from '../../server/contract/node-red.ts';
import { makeApp } from '../helpers/app.ts';
import { testLicenseKeys } from '../helpers/license.ts';
import { waitFor } from '../helpers/wait-for.ts';
import { authHeader, createAdmin, makeLicensedApp, signIn, ADMIN_USERNAME, ADMIN_PASSWORD } from '../helpers/session.ts';
import { call, deploy, editor, editorCookie, listen, running, type Gateway } from '../helpers/node-red.ts';

const PORT_BASE = 41000 + Math.floor(Math.random() * 2000) * 10;

function comms(g: Gateway, id: string, cookie: string | null): Promise<'open' | number> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`${g.base.replace('http', 'ws')}/soft-gateway/node-red/${id}/editor/comms`, { headers: cookie ? { cookie } : {} });
    ws.on('open', () => {
      ws.close();
      resolve('open');
    });
    ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    ws.on('error', () => resolve(0));
  });
}

/** A flow with an inject node and an MQTT broker config node carrying credentials. */
function flow(label: string): unknown[] {
  return [
    { id: 'tab1', type: 'tab', label },
    { id: `inject-${label}`, type: 'inject', z: 'tab1', name: label, x: 100, y: 100, wires: [[]] },
    { id: 'broker1', type: 'mqtt-broker', name: 'b', broker: 'localhost', port: '1883', credentials: { user: 'meter', password: `pw-${label}` } },
  ];
}

/**
 * A flow that freezes its runtime when it is started a second time in the same process: its
 * function node's "On Start" code spins forever (no function timeout is set, as by default) once
 * the global context says it ran before. Deployed once it is harmless, so its snapshot can be
 * taken; rolled back to, it blocks Node-RED's event loop and the deployment never answers.
 */
function freezer(label: string): unknown[] {
  const initialize = "if (global.get('started')) { while (true) {} } global.set('started', true);";
  return [
    { id: 'tab-f', type: 'tab', label },
    { id: 'freeze', type: 'function', z: 'tab-f', name: 'freeze', func: 'return msg;', outputs: 1, initialize, finalize: '', x: 200, y: 60, wires: [[]] },
  ];
}

async function deployedLabels(g: Gateway, id: string, cookie: string): Promise<string[]> {
  const flows = (await (await editor(g, id, 'flows', cookie)).json()) as { type: string; label?: string }[];
  return flows.filter((n) => n.type === 'tab').map((n) => n.label ?? '');
}

/** The pid of the instance's runtime process, found by its user dir on the command line. */
function runtimePid(dataDir: string, id: string): number | undefined {
  const userDir = join(dataDir, 'node-red', id);
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').includes(userDir)) return Number(entry);
    } catch {
      // the process ended meanwhile
    }
  }
  return undefined;
}

describe('soft gateway: Node-RED instances', () => {
  it('refuses instances with the spec text when node-red is not installed, and still lists them', async () => {
    const t = await makeLicensedApp({ nodeRedDir: '/nonexistent/node-red' });
    const admin = await createAdmin(t);
    const g = { t, base: '', auth: authHeader(admin.token) };
    expect((await call(g, 'GET', '/api/yt/node_red')).json).toEqual({ items: [], total: 0 });
    expect((await call(g, 'GET', '/api/yt/node_red/service')).json).toEqual({ installed: false, max: 3 });
    const created = await call<{ key: string }>(g, 'POST', '/api/yt/node_red', { name: 'meters' });
    expect(created.status).toBe(503);
    expect(created.json.key).toBe('error.nodeRed.notInstalled');
  });

  it('keeps the port range two ordered ports within 1024-65535', async () => {
    const t = await makeLicensedApp();
    const g = { t, base: '', auth: authHeader((await createAdmin(t)).token) };
    expect((await call(g, 'GET', '/api/yt/configuration/port_range')).json).toEqual({ start: 30000, end: 30999 });
    const reversed = await call<{ key: string; details: { field: string }[] }>(g, 'PUT', '/api/yt/configuration/port_range', { start: 5000, end: 4000 });
    expect(reversed.status).toBe(400);
    expect(reversed.json.details[0]!.field).toBe('body.end');
    expect((await call(g, 'PUT', '/api/yt/configuration/port_range', { start: 80, end: 4000 })).status).toBe(400);
    expect((await call(g, 'PUT', '/api/yt/configuration/port_range', { start: 40000, end: 40010 })).json).toEqual({ start: 40000, end: 40010 });
    expect((await call(g, 'GET', '/api/yt/configuration/port_range')).json).toEqual({ start: 40000, end: 40010 });
  });

  it('runs an instance behind the sign-in: tickets, deploy snapshots, rollback, crash restart, limit, credentials across a gateway restart', async () => {
    const t = await makeLicensedApp({ nodeRedMax: 2 });
    const admin = await createAdmin(t);
    const g = await listen(t, admin.token);
    await call(g, 'PUT', '/api/yt/configuration/port_range', { start: PORT_BASE, end: PORT_BASE + 9 });
    expect((await call(g, 'GET', '/api/yt/node_red/service')).json).toEqual({ installed: true, max: 2 });

    // Bad input first: a name breaking the naming rule, a port outside the range.
    const badName = await call<{ details: { field: string }[] }>(g, 'POST', '/api/yt/node_red', { name: 'bad name!' });
    expect(badName.status).toBe(400);
    expect(badName.json.details[0]!.field).toBe('body.name');
    const badPort = await call<{ key: string }>(g, 'POST', '/api/yt/node_red', { name: 'meters', port: PORT_BASE + 100 });
    expect(badPort.status).toBe(400);
    expect(badPort.json.key).toBe('error.nodeRed.portUnavailable');

    const created = await call<NodeRedInstance>(g, 'POST', '/api/yt/node_red', { name: 'meters', description: 'meter protocol' });
    expect(created.status).toBe(200);
    const id = created.json.id;
    expect(created.json.port).toBe(PORT_BASE);
    const up = await running(g, id);
    expect(up.rssBytes).toBeGreaterThan(0);

    // The instance's own port refuses its admin API; so does the gateway without a ticket.
    expect((await fetch(`http://127.0.0.1:${up.port}/soft-gateway/node-red/${id}/editor/flows`)).status).toBe(401);
    expect((await editor(g, id, 'flows', null)).status).toBe(401);
    expect((await editor(g, id, '?ticket=forged', null, { redirect: 'manual' })).status).toBe(401);
    expect(await comms(g, id, null)).toBe(401);

    const cookie = await editorCookie(g, id);
    expect((await editor(g, id, '', cookie)).status).toBe(200);
    expect(await comms(g, id, cookie)).toBe('open');

    // Two deploys through the proxy: a snapshot each.
    await deploy(g, id, cookie, flow('first'));
    await deploy(g, id, cookie, flow('second'));
    const snaps = (await call<NodeRedSnapshotPage>(g, 'GET', `/api/yt/node_red/${id}/snapshot`)).json;
    expect(snaps.items.map((s) => s.source)).toEqual(['DEPLOY', 'DEPLOY']);
    const first = snaps.items[1]!;
    // The preview reads the deployed flows as well as a snapshot's.
    const deployed = (await call<{ flows: { type: string; label?: string }[] }>(g, 'GET', `/api/yt/node_red/${id}/flows`)).json.flows;
    expect(deployed.find((n) => n.type === 'tab')?.label).toBe('second');
    expect((await call<{ flows: { label?: string }[] }>(g, 'GET', `/api/yt/node_red/${id}/snapshot/${first.id}`)).json.flows[0]!.label).toBe('first');

    // Rollback restores the first flow (and snapshots the second before replacing it).
    expect((await call(g, 'POST', `/api/yt/node_red/${id}/snapshot/${first.id}/rollback`)).json).toEqual({ ok: true });
    expect(await deployedLabels(g, id, cookie)).toEqual(['first']);
    const after = (await call<NodeRedSnapshotPage>(g, 'GET', `/api/yt/node_red/${id}/snapshot`)).json;
    expect(after.items[0]!.source).toBe('ROLLBACK');
    const creds = (await (await editor(g, id, 'credentials/mqtt-broker/broker1', cookie)).json()) as Record<string, unknown>;
    expect(creds).toMatchObject({ user: 'meter', has_password: true });

    // A second instance (the limit is 2): its cookie does not open the first; a third is refused.
    const other = (await call<NodeRedInstance>(g, 'POST', '/api/yt/node_red', { name: 'other' })).json;
    await call(g, 'POST', `/api/yt/node_red/${other.id}/stop`);
    // Another instance's snapshot is not found through this one.
    expect((await call(g, 'GET', `/api/yt/node_red/${other.id}/snapshot/${first.id}`)).status).toBe(404);
    expect((await call(g, 'POST', `/api/yt/node_red/${other.id}/snapshot/${first.id}/rollback`)).status).toBe(404);
    const otherCookie = await editorCookie(g, other.id);
    expect((await editor(g, id, 'flows', otherCookie)).status).toBe(401);
    expect(await comms(g, id, otherCookie)).toBe(401);
    const third = await call<{ code: number; key: string }>(g, 'POST', '/api/yt/node_red', { name: 'third' });
    expect(third.status).toBe(400);
    expect(third.json).toMatchObject({ code: 41, key: 'error.nodeRed.limitReached' });
    expect((await call<{ key: string }>(g, 'POST', '/api/yt/node_red', { name: 'meters' })).status).toBe(400);

    // A crash: the runtime is killed and comes back by itself.
    const pid = runtimePid(t.dataDir, id);
    expect(pid).toBeDefined();
    process.kill(pid!, 'SIGKILL');
    await waitFor('a new runtime process', async () => {
      const now = runtimePid(t.dataDir, id);
      return now !== undefined && now !== pid ? now : null;
    });
    await running(g, id);
    expect(((await call<{ lines: string[] }>(g, 'GET', `/api/yt/node_red/${id}/log`)).json.lines.length)).toBeGreaterThan(0);

    // The gateway restarts: the instance comes back with its secret, so its credentials still decrypt.
    await t.app.close();
    const again = await makeApp({ dataDir: t.dataDir, nodeRedMax: 2, embeddedLicenseKeys: [testLicenseKeys().publicKeyPem] });
    const g2 = await listen(again, (await signIn(again.app, ADMIN_USERNAME, ADMIN_PASSWORD)).token);
    await running(g2, id);
    const cookie2 = await editorCookie(g2, id);
    expect(await deployedLabels(g2, id, cookie2)).toEqual(['first']);
    expect(await (await editor(g2, id, 'credentials/mqtt-broker/broker1', cookie2)).json()).toMatchObject({ user: 'meter', has_password: true });

    // Deleting removes the process and the user dir.
    expect((await call(g2, 'DELETE', '/api/yt/node_red', { ids: [id, other.id] })).json).toEqual({ deleted: 2 });
    expect(runtimePid(t.dataDir, id)).toBeUndefined();
  }, 240_000);

  it('puts back the flows a rollback replaced when the snapshot does not stay healthy, and says so in the log', async () => {
    const t = await makeLicensedApp({ nodeRedRollbackHealthMs: 30_000 });
    const g = await listen(t, (await createAdmin(t)).token);
    await call(g, 'PUT', '/api/yt/configuration/port_range', { start: PORT_BASE + 5, end: PORT_BASE + 9 });
    const id = (await call<NodeRedInstance>(g, 'POST', '/api/yt/node_red', { name: 'frozen' })).json.id;
    await running(g, id);
    const cookie = await editorCookie(g, id);
    await deploy(g, id, cookie, flow('good'));
    await deploy(g, id, cookie, freezer('bad'));
    await deploy(g, id, cookie, flow('good'));
    const bad = (await call<NodeRedSnapshotPage>(g, 'GET', `/api/yt/node_red/${id}/snapshot`)).json.items[1]!;
    expect(bad.nodeCount).toBe(2);

    const answer = await call<{ key: string }>(g, 'POST', `/api/yt/node_red/${id}/snapshot/${bad.id}/rollback`);
    expect(answer.status).toBe(502);
    expect(answer.json.key).toBe('error.nodeRed.rollbackReverted');
    await running(g, id);
    expect(await deployedLabels(g, id, cookie)).toEqual(['good']);
    const log = (await call<{ lines: string[] }>(g, 'GET', `/api/yt/node_red/${id}/log`)).json.lines.join('\n');
    expect(log).toContain(`rollback to snapshot ${bad.id} was not healthy within 30 s`);
    await call(g, 'DELETE', '/api/yt/node_red', { ids: [id] });
  }, 180_000);

  it('exposes HTTP-in nodes without sign-in only when turned on, never the editor; samples CPU and memory; a crash shows its last log lines', async () => {
    const t = await makeLicensedApp();
    const g = await listen(t, (await createAdmin(t)).token);
    await call(g, 'PUT', '/api/yt/configuration/port_range', { start: PORT_BASE + 5, end: PORT_BASE + 9 });
    const created = (await call<NodeRedInstance>(g, 'POST', '/api/yt/node_red', { name: 'hooks' })).json;
    const id = created.id;
    expect(created.exposeHttp).toBe(false);
    await running(g, id);
    const cookie = await editorCookie(g, id);
    await deploy(g, id, cookie, [
      { id: 'tab-h', type: 'tab', label: 'hooks' },
      { id: 'in', type: 'http in', z: 'tab-h', url: '/hello', method: 'get', x: 100, y: 60, wires: [['fn']] },
      { id: 'fn', type: 'function', z: 'tab-h', func: 'msg.payload = { hello: msg.req.query.name }; return msg;', outputs: 1, x: 250, y: 60, wires: [['out']] },
      { id: 'out', type: 'http response', z: 'tab-h', x: 400, y: 60, wires: [] },
    ]);
    const hello = (): Promise<Response> => fetch(`${g.base}/soft-gateway/node-red/${id}/http/hello?name=meter`);

    // Off (the default): the endpoint is not there, as for no instance at all.
    expect((await hello()).status).toBe(404);
    const on = await call<NodeRedInstance>(g, 'PUT', '/api/yt/node_red', { id, name: 'hooks', exposeHttp: true });
    expect(on.json.exposeHttp).toBe(true);
    const answer = await hello();
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ hello: 'meter' });
    // The exposed path never leads to the editor or its admin API, even with a forged proxy header.
    for (const path of ['http/../editor/flows', 'http/%2e%2e/editor/flows', 'http/..%2feditor/flows']) {
      const res = await fetch(`${g.base}/soft-gateway/node-red/${id}/${path}`, { headers: { 'x-edge-node-red-token': 'forged' } });
      expect([401, 404]).toContain(res.status);
      expect(await res.text()).not.toContain('tab-h');
    }
    expect((await fetch(`${g.base}/soft-gateway/node-red/${id}/http/hello`, { headers: { 'x-edge-node-red-token': 'forged' } })).status).toBe(200);
    expect((await call(g, 'PUT', '/api/yt/node_red', { id, name: 'hooks', exposeHttp: false })).status).toBe(200);
    expect((await hello()).status).toBe(404);

    // CPU and memory come from the supervisor's samples (every 5 s), not per request.
    const sampled = await waitFor('a CPU sample', async () => {
      const { json } = await call<NodeRedInstance>(g, 'GET', `/api/yt/node_red/${id}`);
      return json.cpuPercent !== undefined ? json : null;
    });
    expect(sampled.rssBytes).toBeGreaterThan(10 * 1024 * 1024);
    expect(sampled.cpuPercent).toBeGreaterThanOrEqual(0);
    const listed = (await call<{ items: NodeRedInstance[] }>(g, 'GET', '/api/yt/node_red')).json.items[0]!;
    expect(listed.rssBytes).toBeGreaterThan(0);

    // A runtime that cannot start (its port taken meanwhile) keeps crashing: its status carries why.
    await call(g, 'POST', `/api/yt/node_red/${id}/stop`);
    const squatter = createServer();
    await new Promise<void>((resolve) => squatter.listen(sampled.port, '127.0.0.1', () => resolve()));
    try {
      await call(g, 'POST', `/api/yt/node_red/${id}/start`);
      const crashed = await waitFor('CRASHED with its last lines', async () => {
        const { json } = await call<NodeRedInstance>(g, 'GET', `/api/yt/node_red/${id}`);
        return json.status === 'CRASHED' && json.crashLog?.some((l) => l.includes('EADDRINUSE')) ? json : null;
      });
      expect(crashed.crashLog!.length).toBeLessThanOrEqual(10);
      expect(crashed.rssBytes).toBeUndefined();
    } finally {
      squatter.close();
    }
    await call(g, 'DELETE', '/api/yt/node_red', { ids: [id] });
  }, 180_000);
});
