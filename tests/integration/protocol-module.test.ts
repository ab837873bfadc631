/**
 * Protocol modules (server/contract/protocol-module.ts): a vendor's Node-RED flow or subflow in one
 * JSON file, checked on upload and installed into a real Node-RED instance through its admin API.
 */
import { describe, expect, it } from 'vitest';
import type { NodeRedInstance, NodeRedSnapshotPage } from '../../server/contract/node-red.ts';
import type { ProtocolModule, ProtocolModuleFile } from '../../server/contract/protocol-module.ts';
import type { TestApp } from '../helpers/app.ts';
import { waitFor } from '../helpers/wait-for.ts';
import { authHeader, createAdmin, makeLicensedApp } from '../helpers/session.ts';

const PORT_BASE = 43000 + Math.floor(Math.random() * 2000) * 10;

async function call<T>(t: TestApp, token: string, method: string, url: string, body?: unknown, raw?: string): Promise<{ status: number; json: T; headers: Record<string, unknown> }> {
  const headers = { ...authHeader(token), ...(raw !== undefined ? { 'content-type': 'application/json' } : {}) };
  const payload = raw ?? (body !== undefined ? JSON.stringify(body) : undefined);
  const res = await t.app.inject({ method: method as 'GET', url, headers: { ...headers, ...(payload ? { 'content-type': 'application/json' } : {}) }, ...(payload ? { payload } : {}) });
  return { status: res.statusCode, json: res.json() as T, headers: res.headers };
}

/** A vendor's meter protocol: a subflow decoding frames, and a flow using it (no tab of its own). */
const meterSubflow: ProtocolModuleFile = {
  name: 'dlt645-meter',
  type: 'DL/T 645',
  description: 'Reads energy from DL/T 645 meters',
  corporateName: 'Acme Meters Ltd',
  certificate: '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----',
  flow: [
    { id: 'sf1', type: 'subflow', name: 'Decode 645', in: [{ x: 40, y: 40, wires: [{ id: 'fn1' }] }], out: [{ x: 300, y: 40, wires: [{ id: 'fn1', port: 0 }] }] },
    { id: 'fn1', type: 'function', z: 'sf1', name: 'decode', func: 'return msg;', outputs: 1, x: 160, y: 40, wires: [[]] },
  ],
};
const pollFlow: ProtocolModuleFile = {
  name: 'meter-poll',
  type: 'Modbus meter',
  corporateName: 'Acme Meters Ltd',
  flow: [
    { id: 'a', type: 'inject', z: 'vendor-tab', name: 'poll', x: 100, y: 60, wires: [['b']] },
    { id: 'b', type: 'debug', z: 'vendor-tab', name: 'reading', x: 300, y: 60, wires: [] },
  ],
};

describe('soft gateway: protocol modules', () => {
  it('keeps, lists, downloads and deletes modules, and refuses files that are not modules', async () => {
    const t = await makeLicensedApp({ nodeRedDir: '/nonexistent/node-red' });
    const { token } = await createAdmin(t);
    const up = await call<ProtocolModule>(t, token, 'POST', '/api/yt/protocol_module', meterSubflow);
    expect(up.status).toBe(200);
    expect(up.json).toMatchObject({ name: 'dlt645-meter', type: 'DL/T 645', corporateName: 'Acme Meters Ltd', kind: 'SUBFLOW', nodeCount: 2 });
    expect((await call<ProtocolModule>(t, token, 'POST', '/api/yt/protocol_module', pollFlow)).json.kind).toBe('FLOW');
    const list = await call<{ items: ProtocolModule[]; total: number }>(t, token, 'GET', '/api/yt/protocol_module');
    expect(list.json.items.map((m) => m.name)).toEqual(['meter-poll', 'dlt645-meter']);
    expect((await call<ProtocolModule>(t, token, 'GET', `/api/yt/protocol_module/${up.json.id}`)).json.certificate).toContain('BEGIN CERTIFICATE');
    const file = await call<ProtocolModuleFile>(t, token, 'GET', `/api/yt/protocol_module/${up.json.id}/download`);
    expect(file.headers['content-disposition']).toContain('dlt645-meter.json');
    expect(file.json.flow).toEqual(meterSubflow.flow);

    // Malformed JSON, a field missing, a flow that is not a flow, a file past 5 MB.
    const malformed = await call<{ key: string }>(t, token, 'POST', '/api/yt/protocol_module', undefined, '{"name": "x", "flow": [');
    expect(malformed.status).toBe(400);
    expect(malformed.json.key).toBe('error.validation');
    const noVendor = await call<{ details: { field: string }[] }>(t, token, 'POST', '/api/yt/protocol_module', { ...pollFlow, corporateName: undefined });
    expect(noVendor.status).toBe(400);
    expect(noVendor.json.details.map((d) => d.field)).toContain('body.corporateName');
    for (const flow of [[], [{ id: 'x', type: 'mqtt-broker' }], [{ type: 'inject', z: 't' }], [{ id: 'a', type: 'debug', z: 't' }, { id: 'a', type: 'debug', z: 't' }]]) {
      const notAFlow = await call<{ key: string; details: { field: string }[] }>(t, token, 'POST', '/api/yt/protocol_module', { ...pollFlow, flow });
      expect(notAFlow.status, JSON.stringify(flow)).toBe(400);
      expect(notAFlow.json.key).toBe('error.protocolModule.notAFlow');
      expect(notAFlow.json.details[0]!.field).toBe('body.flow');
    }
    const big = { ...pollFlow, description: '', flow: [...pollFlow.flow, { id: 'c', type: 'comment', z: 'vendor-tab', info: 'x'.repeat(5 * 1024 * 1024) }] };
    const oversized = await call<{ key: string }>(t, token, 'POST', '/api/yt/protocol_module', big);
    expect(oversized.status).toBe(413);
    expect(oversized.json.key).toBe('error.payloadTooLarge');
    expect((await call<{ total: number }>(t, token, 'GET', '/api/yt/protocol_module')).json.total).toBe(2);

    // Installing needs a running instance; without node-red the instance cannot even exist.
    expect((await call(t, token, 'POST', `/api/yt/protocol_module/${up.json.id}/install`, { instanceId: 'nope' })).status).toBe(404);
    expect((await call(t, token, 'DELETE', '/api/yt/protocol_module', { ids: [up.json.id] })).json).toEqual({ deleted: 1 });
    expect((await call(t, token, 'GET', `/api/yt/protocol_module/${up.json.id}`)).status).toBe(404);
    await t.app.close();
  });

  it('installs a module into a running instance after snapshotting it, twice without clashing ids', async () => {
    const t = await makeLicensedApp();
    const { token } = await createAdmin(t);
    await call(t, token, 'PUT', '/api/yt/configuration/port_range', { start: PORT_BASE, end: PORT_BASE + 9 });
    const subflow = (await call<ProtocolModule>(t, token, 'POST', '/api/yt/protocol_module', meterSubflow)).json;
    const poll = (await call<ProtocolModule>(t, token, 'POST', '/api/yt/protocol_module', pollFlow)).json;
    const instance = (await call<NodeRedInstance>(t, token, 'POST', '/api/yt/node_red', { name: 'meters' })).json;
    await call(t, token, 'POST', `/api/yt/node_red/${instance.id}/stop`);
    const stopped = await call<{ key: string }>(t, token, 'POST', `/api/yt/protocol_module/${poll.id}/install`, { instanceId: instance.id });
    expect(stopped.status).toBe(409);
    expect(stopped.json.key).toBe('error.nodeRed.notRunning');
    await call(t, token, 'POST', `/api/yt/node_red/${instance.id}/start`);
    await waitFor('instance RUNNING', async () => ((await call<NodeRedInstance>(t, token, 'GET', `/api/yt/node_red/${instance.id}`)).json.status === 'RUNNING' ? true : null));

    for (const m of [poll, poll, subflow]) {
      const installed = await call<{ added: number }>(t, token, 'POST', `/api/yt/protocol_module/${m.id}/install`, { instanceId: instance.id });
      expect(installed.status).toBe(200);
    }
    const flows = (await call<{ flows: { id: string; type: string; label?: string; z?: string; wires?: string[][] }[] }>(t, token, 'GET', `/api/yt/node_red/${instance.id}/flows`)).json.flows;
    const tabs = flows.filter((n) => n.type === 'tab' && n.label === 'meter-poll');
    expect(tabs).toHaveLength(2);
    const injects = flows.filter((n) => n.type === 'inject');
    expect(injects).toHaveLength(2);
    expect(new Set(injects.map((n) => n.id)).size).toBe(2);
    // Each copy's wire goes to its own debug node on its own tab.
    for (const inject of injects) expect(flows.find((n) => n.id === inject.wires![0]![0])).toMatchObject({ type: 'debug', z: inject.z });
    const decoder = flows.find((n) => n.type === 'subflow');
    expect(flows.find((n) => n.type === 'function')?.z).toBe(decoder?.id);
    const snaps = (await call<NodeRedSnapshotPage>(t, token, 'GET', `/api/yt/node_red/${instance.id}/snapshot`)).json.items;
    expect(snaps.map((s) => s.source)).toEqual(['INSTALL', 'INSTALL', 'INSTALL']);
    expect(snaps[0]!.note).toBe('dlt645-meter');
    await call(t, token, 'DELETE', '/api/yt/node_red', { ids: [instance.id] });
    await t.app.close();
  }, 180_000);
});
