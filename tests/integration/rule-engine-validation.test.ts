import { describe, expect, it } from 'vitest';
import { deviceRoutes } from '../../server/contract/device.ts';
import { sceneLinkageRoutes, type Scene, type SceneCreateBody } from '../../server/contract/scene-linkage.ts';
import { expectError } from '../helpers/error-body.ts';
import { createScene, makeBoilerApp, overheatScene, overheatTrigger, type BoilerApp } from '../helpers/scenes.ts';
import { propertyBody } from '../helpers/thing-model.ts';
import { expectRefused } from '../helpers/thing-model.ts';

function create(t: BoilerApp, body: unknown) {
  return t.api.call(sceneLinkageRoutes.create, { body: body as SceneCreateBody, lang: 'en-US' });
}

describe('scene linkage refuses bad input, naming the field, and saves nothing', () => {
  it('refuses empty triggers and clear rules that are not one per trigger', async () => {
    const t = await makeBoilerApp();
    expectRefused(await create(t, overheatScene(t.product.id, { triggers: [], clearRules: [] })), 'error.scene.triggersEmpty', 'body.triggers');
    expectRefused(await create(t, overheatScene(t.product.id, { clearRules: [null, null] })), 'error.scene.clearRulesMismatch', 'body.clearRules');
    expect((await t.api.ok(sceneLinkageRoutes.list)).total).toBe(0);
  });

  it('refuses a "for customers" mark that is not a boolean', async () => {
    const t = await makeBoilerApp();
    expectError(await create(t, { ...overheatScene(t.product.id), forCustomers: 'yes' }), 400, 31, 'error.validation');
    expect((await t.api.ok(sceneLinkageRoutes.list)).total).toBe(0);
  });

  it('refuses keys and events that are not in the product\'s published thing model', async () => {
    const t = await makeBoilerApp();
    const p = t.product.id;
    expectRefused(await create(t, overheatScene(p, { triggers: [overheatTrigger(p, { key: 'pressure' })] })), 'error.scene.keyNotInModel', 'body.triggers.0.key');
    // A draft item is not published yet.
    await t.models.createItem(propertyBody(p, { identifier: 'humidity' }));
    expectRefused(await create(t, overheatScene(p, { triggers: [overheatTrigger(p, { key: 'humidity' })] })), 'error.scene.keyNotInModel', 'body.triggers.0.key');
    expectRefused(
      await create(t, overheatScene(p, { triggers: [overheatTrigger(p, { deviceTriggerType: 'DEVICE_EVENT', key: 'melted', operation: undefined, valueType: undefined, value: undefined })] })),
      'error.scene.eventNotInModel',
      'body.triggers.0.key',
    );
    expectRefused(
      await create(t, overheatScene(p, { conditions: [{ deviceProfileId: p, deviceIds: [], key: 'nope', operation: 'EQUAL', valueType: 'NUMERIC', value: 1 }] })),
      'error.scene.keyNotInModel',
      'body.conditions.0.key',
    );
    const bare = await t.models.createProduct();
    expectRefused(await create(t, overheatScene(bare.id)), 'error.scene.noPublishedModel', 'body.triggers.0.deviceProfileId');
    expectRefused(await create(t, overheatScene('no-such-product')), 'error.scene.productNotFound', 'body.triggers.0.deviceProfileId');
  });

  it('refuses values not of the key\'s type, outside its range, and operations the value type lacks', async () => {
    const t = await makeBoilerApp();
    const p = t.product.id;
    expectRefused(await create(t, overheatScene(p, { triggers: [overheatTrigger(p, { value: 500 })] })), 'error.scene.valueOutOfRange', 'body.triggers.0.value');
    expectRefused(await create(t, overheatScene(p, { triggers: [overheatTrigger(p, { value: 'hot' })] })), 'error.scene.valueInvalid', 'body.triggers.0.value');
    expectRefused(
      await create(t, overheatScene(p, { triggers: [overheatTrigger(p, { valueType: 'BOOLEAN', operation: 'EQUAL', value: true })] })),
      'error.scene.valueTypeMismatch',
      'body.triggers.0.value',
    );
    expectRefused(await create(t, overheatScene(p, { triggers: [overheatTrigger(p, { operation: 'CONTAINS' })] })), 'error.scene.operationNotForType', 'body.triggers.0.operation');
    expectRefused(await create(t, overheatScene(p, { triggers: [overheatTrigger(p, { conditionType: 'DURATION' })] })), 'error.scene.durationRequired', 'body.triggers.0.duration');
    expectRefused(await create(t, overheatScene(p, { triggers: [overheatTrigger(p, { conditionType: 'REPEATING' })] })), 'error.scene.repeatRequired', 'body.triggers.0.repeat');
    expectRefused(
      await create(t, overheatScene(p, { triggers: [overheatTrigger(p, { conditionType: 'DURATION', duration: { value: 31, unit: 'DAYS' } })] })),
      'error.scene.durationTooLong',
      'body.triggers.0.duration.value',
    );
    // The schema refuses unknown enumerations; unknown fields are stripped, never stored.
    expectError(await create(t, overheatScene(p, { triggers: [overheatTrigger(p, { operation: 'ABOVE' as never })] })), 400, 31, 'error.validation');
    expect((await create(t, { ...overheatScene(p), colour: 'red' })).json()).not.toHaveProperty('colour');
  });

  it('refuses an invalid cron expression, time zone or weekday', async () => {
    const t = await makeBoilerApp();
    const p = t.product.id;
    const scheduled = (cron: string, timeZone: string) => overheatScene(p, { triggers: [{ type: 'SCHEDULE_TRIGGER', cron, timeZone }] });
    expectRefused(await create(t, scheduled('every minute', 'UTC')), 'error.scene.cronInvalid', 'body.triggers.0.cron');
    expectRefused(await create(t, scheduled('61 * * * *', 'UTC')), 'error.scene.cronInvalid', 'body.triggers.0.cron');
    expectRefused(await create(t, scheduled('*/5 * * * *', 'Mars/Olympus')), 'error.scene.timeZoneInvalid', 'body.triggers.0.timeZone');
    const specific = (weekdays: number[], timeZone = 'Asia/Shanghai') =>
      overheatScene(p, { schedule: { scheduleType: 'SPECIFIC_TIME', timeZone, weekdays, startTime: '08:00', endTime: '18:00' } });
    expectRefused(await create(t, specific([1, 1])), 'error.scene.weekdayRepeated', 'body.schedule.weekdays.1');
    expectRefused(await create(t, specific([1], 'Nowhere')), 'error.scene.timeZoneInvalid', 'body.schedule.timeZone');
    expectError(await create(t, specific([8])), 400, 31, 'error.validation');
    expectError(
      await create(t, overheatScene(p, { schedule: { scheduleType: 'SPECIFIC_TIME', timeZone: 'UTC', weekdays: [1], startTime: '25:00', endTime: '18:00' } })),
      400,
      31,
      'error.validation',
    );
    const custom = await createScene(
      t,
      overheatScene(p, { schedule: { scheduleType: 'CUSTOM', timeZone: 'Europe/Berlin', items: [{ weekday: 3, enabled: true, startTime: '22:00', endTime: '06:00' }] } }),
    );
    expect(custom.schedule).toEqual({ scheduleType: 'CUSTOM', timeZone: 'Europe/Berlin', items: [{ weekday: 3, enabled: true, startTime: '22:00', endTime: '06:00' }] });
    expect((await createScene(t, overheatScene(p))).schedule).toEqual({ scheduleType: 'ANY_TIME' });
  });

  it('refuses a cycle of scene triggers, leaving the scene unchanged', async () => {
    const t = await makeBoilerApp();
    const p = t.product.id;
    const a = await createScene(t, overheatScene(p, { name: 'a' }));
    const b = await createScene(t, overheatScene(p, { name: 'b', triggers: [{ type: 'SCENE_TRIGGER', sceneId: a.id }] }));
    const c = await createScene(t, overheatScene(p, { name: 'c', triggers: [{ type: 'SCENE_TRIGGER', sceneId: b.id }] }));
    const update = (scene: Scene, triggers: SceneCreateBody['triggers']) =>
      t.api.call(sceneLinkageRoutes.update, { body: { ...overheatScene(p, { name: scene.name, triggers, clearRules: triggers.map(() => null) }), id: scene.id } });
    expectRefused(await update(a, [overheatTrigger(p), { type: 'SCENE_TRIGGER', sceneId: c.id }]), 'error.scene.cycle', 'body.triggers.1.sceneId');
    expectRefused(await update(a, [{ type: 'SCENE_TRIGGER', sceneId: a.id }]), 'error.scene.cycle', 'body.triggers.0.sceneId');
    expectRefused(await create(t, overheatScene(p, { triggers: [{ type: 'SCENE_TRIGGER', sceneId: 'nope' }] })), 'error.scene.sceneNotFound', 'body.triggers.0.sceneId');
    expect(await t.api.ok(sceneLinkageRoutes.get, { params: { id: a.id } })).toEqual(a);
    // A scene others trigger on cannot go alone; together they can.
    expectRefused(await t.api.call(sceneLinkageRoutes.remove, { body: { ids: [a.id] } }), 'error.scene.inUse', 'body.ids');
    expect(await t.api.ok(sceneLinkageRoutes.remove, { body: { ids: [a.id, b.id, c.id] } })).toEqual({ deleted: 3 });
  });

  it('refuses a DEVICE_OUT to a deleted device and trigger devices of another product', async () => {
    const t = await makeBoilerApp();
    const p = t.product.id;
    const gone = await t.models.createDevice({ deviceProfileId: p });
    await t.api.ok(deviceRoutes.delete, { body: { ids: [gone.id] } });
    const action = { type: 'DEVICE_OUT' as const, deviceId: gone.id, commandType: 'SERVICE' as const, content: { method: 'stop', params: {} } };
    expectRefused(await create(t, overheatScene(p, { actions: [action] })), 'error.scene.deviceNotFound', 'body.actions.0.deviceId');
    const stranger = await t.models.createDevice();
    expectRefused(await create(t, overheatScene(p, { triggers: [overheatTrigger(p, { deviceIds: [stranger.id] })] })), 'error.scene.deviceNotOfProduct', 'body.triggers.0.deviceIds.0');
  });

  it('answers 404 for unknown scenes on every call', async () => {
    const t = await makeBoilerApp();
    const params = { id: 'nope' };
    expectError(await t.api.call(sceneLinkageRoutes.get, { params }), 404, 32, 'error.notFound');
    expectError(await t.api.call(sceneLinkageRoutes.update, { body: { ...overheatScene(t.product.id), id: 'nope' } }), 404, 32, 'error.notFound');
    expectError(await t.api.call(sceneLinkageRoutes.setEnabled, { params, body: { enabled: true } }), 404, 32, 'error.notFound');
    expectError(await t.api.call(sceneLinkageRoutes.execute, { params }), 404, 32, 'error.notFound');
    expectError(await t.api.call(sceneLinkageRoutes.log, { params }), 404, 32, 'error.notFound');
    expect(await t.api.ok(sceneLinkageRoutes.remove, { body: { ids: ['nope'] } })).toEqual({ deleted: 0 });
  });

  it('lists scenes filtered by name and enabled state', async () => {
    const t = await makeBoilerApp();
    await createScene(t, overheatScene(t.product.id, { name: 'Boiler hot' }));
    const off = await createScene(t, overheatScene(t.product.id, { name: 'Pump dry', enabled: false }));
    expect((await t.api.ok(sceneLinkageRoutes.list, { query: { name: 'boiler' } })).items.map((s) => s.name)).toEqual(['Boiler hot']);
    expect((await t.api.ok(sceneLinkageRoutes.list, { query: { enabled: false } })).items.map((s) => s.id)).toEqual([off.id]);
    const on = await t.api.ok(sceneLinkageRoutes.setEnabled, { params: { id: off.id }, body: { enabled: true } });
    expect(on.enabled).toBe(true);
    expect((await t.api.ok(sceneLinkageRoutes.list, { query: { enabled: true } })).total).toBe(2);
  });
});
