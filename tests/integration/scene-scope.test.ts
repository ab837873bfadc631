/**
 * Scenes and organization scoping: a customer sees and runs only hand-run (HAND_ACT) scenes whose
 * every device lies in their organizations, so running one cannot touch another organization's
 * devices; any other scene answers 404, as if it did not exist.
 */
import { describe, expect, it } from 'vitest';
import { commandRoutes } from '../../server/contract/command.ts';
import { deviceRoutes } from '../../server/contract/device.ts';
import { notificationRoutes } from '../../server/contract/notification.ts';
import type { DeviceOutAction } from '../../server/contract/scene-linkage.ts';
import { sceneLinkageRoutes } from '../../server/contract/scene-linkage.ts';
import { eventually } from '../helpers/mqtt.ts';
import { createRoleUser } from '../helpers/roles.ts';
import { createScene, makeBoilerApp, overheatScene, overheatTrigger, sendTemperature } from '../helpers/scenes.ts';

const stop = (deviceId: string): DeviceOutAction => ({ type: 'DEVICE_OUT', deviceId, commandType: 'SERVICE', content: { method: 'stop', params: {} } });

describe('scenes a customer sees and runs', () => {
  it('lists and runs only hand-run scenes whose devices are all theirs, and answers 404 for the others', async () => {
    const t = await makeBoilerApp();
    const plant = await t.api.createOrganization({ name: 'Plant' });
    const other = await t.api.createOrganization({ name: 'Other' });
    const mine = await t.models.createDevice({ deviceProfileId: t.product.id, organizationId: plant.id });
    const theirs = await t.models.createDevice({ deviceProfileId: t.product.id, organizationId: other.id });
    const byHand = [{ type: 'HAND_ACT' as const }];
    // All marked for customers: what hides the others here is their devices or their triggers.
    const offered = { forCustomers: true };
    const own = await createScene(t, overheatScene(t.product.id, { ...offered, name: 'own', triggers: byHand, actions: [stop(mine.id)] }));
    const mixed = await createScene(t, overheatScene(t.product.id, { ...offered, name: 'mixed', triggers: byHand, actions: [stop(mine.id), stop(theirs.id)] }));
    const automatic = await createScene(
      t,
      overheatScene(t.product.id, { ...offered, name: 'automatic', triggers: [overheatTrigger(t.product.id, { deviceIds: [mine.id] })], actions: [stop(mine.id)] }),
    );
    // A trigger with no device list watches every device of the product, other organizations' too.
    const everyBoiler = await createScene(
      t,
      overheatScene(t.product.id, { ...offered, name: 'every', triggers: [...byHand, overheatTrigger(t.product.id)], clearRules: [null, null], actions: [] }),
    );
    const customer = await createRoleUser(t.api, 'CUSTOMER_USER', [plant.id]);

    const page = await customer.api.ok(sceneLinkageRoutes.list, { query: { pageSize: 100 } });
    expect(page.items.map((s) => s.name)).toEqual(['own']);
    expect(page.total).toBe(1);
    expect((await customer.api.ok(sceneLinkageRoutes.get, { params: { id: own.id } })).name).toBe('own');
    expect((await customer.api.call(sceneLinkageRoutes.execute, { params: { id: own.id } })).statusCode).toBe(200);

    for (const scene of [mixed, automatic, everyBoiler]) {
      for (const route of [sceneLinkageRoutes.get, sceneLinkageRoutes.execute, sceneLinkageRoutes.log]) {
        const res = await customer.api.call(route, { params: { id: scene.id } });
        expect(res.statusCode, `${scene.name} ${route.url}`).toBe(404);
        expect(res.json()).toMatchObject({ code: 32, key: 'error.notFound' });
      }
    }
    expect((await t.api.ok(commandRoutes.list, { params: { id: theirs.id } })).total).toBe(0);
    expect((await t.api.ok(commandRoutes.list, { params: { id: mine.id } })).total).toBe(1);
    expect((await t.api.ok(sceneLinkageRoutes.list, { query: { pageSize: 100 } })).total).toBe(4);
  });

  it('shows and runs for a customer only the hand-run scenes marked for customers, and an administrator can mark one later', async () => {
    const t = await makeBoilerApp();
    const plant = await t.api.createOrganization({ name: 'Plant' });
    const mine = await t.models.createDevice({ deviceProfileId: t.product.id, organizationId: plant.id });
    const body = overheatScene(t.product.id, { name: 'unmarked', triggers: [{ type: 'HAND_ACT' }], actions: [stop(mine.id)] });
    const unmarked = await createScene(t, body);
    expect(unmarked.forCustomers).toBe(false);
    const customer = await createRoleUser(t.api, 'CUSTOMER_USER', [plant.id]);

    expect((await customer.api.ok(sceneLinkageRoutes.list, { query: { pageSize: 100 } })).total).toBe(0);
    for (const route of [sceneLinkageRoutes.get, sceneLinkageRoutes.execute]) {
      const res = await customer.api.call(route, { params: { id: unmarked.id } });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ code: 32, key: 'error.notFound' });
    }
    expect((await t.api.ok(commandRoutes.list, { params: { id: mine.id } })).total).toBe(0);

    const marked = await t.api.ok(sceneLinkageRoutes.update, { body: { ...body, id: unmarked.id, forCustomers: true } });
    expect(marked.forCustomers).toBe(true);
    expect((await t.api.ok(sceneLinkageRoutes.get, { params: { id: unmarked.id } })).forCustomers).toBe(true);
    expect((await customer.api.ok(sceneLinkageRoutes.list, { query: { pageSize: 100 } })).items.map((s) => s.id)).toEqual([unmarked.id]);
    expect((await customer.api.call(sceneLinkageRoutes.execute, { params: { id: unmarked.id } })).statusCode).toBe(200);
    expect((await t.api.ok(commandRoutes.list, { params: { id: mine.id } })).total).toBe(1);
  });

  it('tells of an alarm only the users who may see its device: not a customer of another organization', async () => {
    const t = await makeBoilerApp();
    const plant = await t.api.createOrganization({ name: 'Plant' });
    const other = await t.api.createOrganization({ name: 'Other' });
    const d = t.device;
    await t.api.ok(deviceRoutes.update, { body: { id: d.id, name: d.name, deviceType: d.deviceType, deviceProfileId: d.deviceProfileId, organizationId: plant.id } });
    const atPlant = await createRoleUser(t.api, 'CUSTOMER_USER', [plant.id]);
    const atOther = await createRoleUser(t.api, 'CUSTOMER_USER', [other.id]);
    const tenant = await createRoleUser(t.api, 'TENANT_ADMIN');
    await createScene(t, overheatScene(t.product.id));
    await sendTemperature(t, 95);
    await eventually(() => t.api.ok(notificationRoutes.list), (page) => page.total === 1);
    expect((await tenant.api.ok(notificationRoutes.list)).total).toBe(1);
    expect((await atPlant.api.ok(notificationRoutes.list)).items.map((n) => n.info.deviceId)).toEqual([d.id]);
    expect((await atOther.api.ok(notificationRoutes.list)).total).toBe(0);
  });
});
