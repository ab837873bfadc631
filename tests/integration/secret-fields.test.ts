/**
 * Credentials in read answers (server/contract/secrets.ts, issue 24 #6): each secret field is read
 * as a role without its permission reads it, over HTTP and the websocket, and comes back redacted,
 * while a role holding the permission reads the value. An audit of the OpenAPI document keeps the
 * list whole: an answer field whose name looks like a credential is either listed or left out with
 * a reason below.
 */
import { describe, expect, it } from 'vitest';
import { cloudRoutes } from '../../server/contract/cloud.ts';
import { cloudLinkRoutes } from '../../server/contract/cloud-link.ts';
import { deviceRoutes } from '../../server/contract/device.ts';
import { modbusRoutes } from '../../server/contract/modbus.ts';
import { productRoutes } from '../../server/contract/product.ts';
import type { EdgeStateUpdate } from '../../server/contract/realtime.ts';
import { secretFields } from '../../server/contract/secrets.ts';
import { LiveClient, makeLiveApp, type LiveTestApp } from '../helpers/live.ts';
import { ModbusSlave } from '../helpers/modbus.ts';
import { eventually } from '../helpers/mqtt.ts';
import { createRoleUser, type RoleUser } from '../helpers/roles.ts';
import { ThingModelApi } from '../helpers/thing-model.ts';

/** Answer fields named like credentials that are not one, or are answered only to their owner. */
const notSecret: Record<string, string> = {
  token: 'the caller’s own session (sign-in, refresh), or the access tokens of a batch generation, answered only to roles that create devices',
  refreshToken: 'the caller’s own session',
  platformSecretSet: 'whether a secret is stored, never the secret',
  passwordSet: 'whether a password is stored, never the password',
  mustChangePassword: 'a flag',
  credentialsId: 'the device credentials route, behind device:credentials:view',
  credentialsValue: 'the device credentials route, behind device:credentials:view',
  edgeSecret: 'its own route, behind edge:secret:view',
  key: 'a telemetry key, an attribute key, a dictionary key: names, not secrets',
  provisionEnabled: 'a flag',
  platformKey: 'the cloud configuration, behind system:config (the gateway owner only)',
  password: 'the provisioning answer to the device that presented the product’s key and secret: its own new credentials',
  syncProfileToken: 'the ONVIF media profile a synced video channel came from (a profile name such as "Profile_1"), not a credential',
  shareToken: 'a visualization share link, answered once to the caller who creates it (visualization:manage); stored hashed',
};

const looksSecret = /secret|token|password|registration|provision|key$/i;

/** Every property name of the answer schemas of the OpenAPI document, at any depth. */
function answerFieldNames(doc: unknown): Set<string> {
  const names = new Set<string>();
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (typeof node !== 'object' || node === null) return;
    const properties = (node as { properties?: Record<string, unknown> }).properties;
    if (properties) for (const name of Object.keys(properties)) names.add(name);
    Object.values(node).forEach(walk);
  };
  for (const methods of Object.values((doc as { paths: Record<string, Record<string, { responses?: unknown }>> }).paths)) {
    for (const operation of Object.values(methods)) walk(operation.responses);
  }
  return names;
}

async function gateway(): Promise<{ t: LiveTestApp & { models: ThingModelApi }; customer: RoleUser; tenant: RoleUser; orgId: string }> {
  const t = await makeLiveApp({ listen: true, tuning: { modbusTimeoutMs: 300, tcp: { identifyTimeoutMs: 500 } } });
  const org = await t.api.createOrganization();
  const customer = await createRoleUser(t.api, 'CUSTOMER_USER', [org.id]);
  const tenant = await createRoleUser(t.api, 'TENANT_ADMIN');
  return { t: { ...t, models: new ThingModelApi(t.app, t.token) }, customer, tenant, orgId: org.id };
}

describe('credentials in read answers', () => {
  it('lists every answer field of the OpenAPI document named like a credential, or says why it is not one', async () => {
    const { t } = await gateway();
    const doc = (await t.app.inject({ url: '/api/docs/json' })).json();
    const unexplained = [...answerFieldNames(doc)].filter((name) => looksSecret.test(name) && !(name in secretFields) && !(name in notSecret));
    expect(unexplained).toEqual([]);
  });

  it('hides a product’s provisionDeviceKey and provisionDeviceSecret from a customer, in the detail and the list', async () => {
    const { t, customer, tenant, orgId } = await gateway();
    const product = await t.api.createProduct({ provisionEnabled: true });
    await t.api.createDevice({ deviceProfileId: product.id, organizationId: orgId });
    const seen = await customer.api.ok(productRoutes.get, { params: { id: product.id } });
    expect(seen).toMatchObject({ provisionEnabled: true, provisionDeviceKey: null, provisionDeviceSecret: null });
    const listed = await customer.api.ok(productRoutes.list, { query: { pageSize: 100 } });
    expect(listed.items.find((p) => p.id === product.id)).toMatchObject({ provisionDeviceKey: null, provisionDeviceSecret: null });
    const full = await tenant.api.ok(productRoutes.get, { params: { id: product.id } });
    expect(full.provisionDeviceKey).toMatch(/^[a-z0-9]{20}$/);
    expect(full.provisionDeviceSecret).toMatch(/^[a-z0-9]{20}$/);
  });

  it('hides a DTU’s registration from a customer in the device detail and list, as its credentials route does', async () => {
    const { t, customer, tenant, orgId } = await gateway();
    const product = await t.models.createModbusProduct({ tcpAuthType: 'REGISTRATION_PACKAGE' });
    const device = await t.api.createDevice({ deviceProfileId: product.id, organizationId: orgId, addressCode: '11', registration: { format: 'ASCII', value: 'SITE-9' } });
    expect((await customer.api.ok(deviceRoutes.get, { params: { id: device.id } })).registration).toBeNull();
    const listed = await customer.api.ok(deviceRoutes.list, { query: { pageSize: 100 } });
    expect(listed.items.find((d) => d.id === device.id)?.registration).toBeNull();
    expect((await tenant.api.ok(deviceRoutes.get, { params: { id: device.id } })).registration).toEqual({ format: 'ASCII', value: 'SITE-9' });
  });

  it('hides the registration a connected DTU sent from a customer in the TCP link view', async () => {
    const { t, customer, tenant, orgId } = await gateway();
    const product = await t.models.createModbusProduct({ tcpAuthType: 'REGISTRATION_PACKAGE', pollIntervalMs: 200 });
    const device = await t.api.createDevice({ deviceProfileId: product.id, organizationId: orgId, addressCode: '11', registration: { format: 'ASCII', value: 'SITE-9' } });
    const port = t.app.services!.tcpAccess!.server.port;
    await ModbusSlave.dtu(port, Buffer.from('SITE-9'), 'REGISTRATION_PACKAGE', [0x11]);
    try {
      await eventually(() => tenant.api.ok(modbusRoutes.link, { params: { id: device.id } }), (link) => link.registration === 'SITE-9', 8000);
      expect(await customer.api.ok(modbusRoutes.link, { params: { id: device.id } })).toMatchObject({ connected: true, registration: null });
    } finally {
      ModbusSlave.killAll();
    }
  });

  it('hides the cloud key from a tenant administrator in the edge state, over HTTP and EDGE_STATE', async () => {
    const { t, tenant } = await gateway();
    await t.api.ok(cloudRoutes.save, { body: { platformAddress: '127.0.0.1', platformPort: 1, platformKey: 'cloud-token-1', platformSecret: '' } });
    expect((await t.api.ok(cloudLinkRoutes.state)).edgeKey).toBe('cloud-token-1');
    expect((await tenant.api.ok(cloudLinkRoutes.state)).edgeKey).toBe('');
    const ws = await LiveClient.open(t, { token: tenant.token });
    ws.send({ cmds: [{ type: 'EDGE_STATE', cmdId: 1 }] });
    const answer = await ws.answer<EdgeStateUpdate>(1);
    expect(answer).toMatchObject({ errorCode: 0, cmdUpdateType: 'EDGE_STATE' });
    expect(answer.data.edgeKey).toBe('');
  });
});
