/**
 * Rule engine test fixtures: a boiler product with a published thing model (temperature INT 0–200,
 * state TEXT, running BOOL, an `overheat` event, a `stop` service), a device of it connected over
 * MQTT, and scene bodies typed against the contract.
 */
import type { MqttClient } from 'mqtt';
import type { Alarm } from '../../server/contract/alarm.ts';
import { alarmRoutes } from '../../server/contract/alarm.ts';
import type { Device } from '../../server/contract/device.ts';
import type { Product } from '../../server/contract/product.ts';
import type { Condition, DeviceTrigger, Scene, SceneCreateBody } from '../../server/contract/scene-linkage.ts';
import { sceneLinkageRoutes } from '../../server/contract/scene-linkage.ts';
import { LiveClient, makeLiveApp, type LiveTestApp } from './live.ts';
import { connectDevice, tokenOf } from './mqtt.ts';
import { eventBody, intType, param, propertyBody, propertyOf, serviceBody, ThingModelApi } from './thing-model.ts';

export interface BoilerApp extends LiveTestApp {
  models: ThingModelApi;
  product: Product;
  device: Device;
  mqtt: MqttClient;
}

/** A live app (listening, for websockets) with the boiler product published and one boiler connected. */
export async function makeBoilerApp(): Promise<BoilerApp> {
  const t = await makeLiveApp({ listen: true });
  const models = new ThingModelApi(t.app, t.token);
  const product = await models.createProduct();
  await models.createItem(propertyBody(product.id, { identifier: 'temperature', functionJson: { dataType: intType({ min: 0, max: 200 }) } }));
  await models.createItem(propertyOf(product.id, { type: 'TEXT', specs: { length: 20 } }, { identifier: 'state' }));
  await models.createItem(propertyOf(product.id, { type: 'BOOL', specs: { '0': 'off', '1': 'on' } }, { identifier: 'running' }));
  await models.createItem(eventBody(product.id, { identifier: 'overheat', eventType: 'ALERT', functionJson: { outputData: [param('temperature')] } }));
  await models.createItem(serviceBody(product.id, { identifier: 'stop', functionJson: { inputData: [] } }));
  await models.publish(product.id);
  const device = await models.createDevice({ deviceProfileId: product.id });
  const mqtt = await connectDevice(t.app, { username: await tokenOf(t.api, device.id) });
  return { ...t, models, product, device, mqtt };
}

/** `temperature > 80` on every boiler, SIMPLE unless told otherwise. */
export function overheatTrigger(productId: string, overrides: Partial<DeviceTrigger> = {}): DeviceTrigger {
  return {
    type: 'DEVICE_TRIGGER',
    deviceTriggerType: 'TIME_SERIES',
    deviceProfileId: productId,
    deviceIds: [],
    key: 'temperature',
    operation: 'GREATER',
    valueType: 'NUMERIC',
    value: 80,
    conditionType: 'SIMPLE',
    ...overrides,
  };
}

/** `temperature < 60`: the boiler cooled down. */
export function cooledDown(productId: string): Condition {
  return { deviceProfileId: productId, deviceIds: [], key: 'temperature', operation: 'LESS', valueType: 'NUMERIC', value: 60 };
}

/** A scene raising a CRITICAL `overheat` alarm when the boiler goes over 80. */
export function overheatScene(productId: string, overrides: Partial<SceneCreateBody> = {}): SceneCreateBody {
  return {
    name: 'boiler_overheat',
    enabled: true,
    triggers: [overheatTrigger(productId)],
    conditions: [],
    actions: [{ type: 'MSG_NOTIFY', severity: 'CRITICAL', alarmType: 'overheat', message: 'Boiler too hot' }],
    clearRules: [null],
    ...overrides,
  };
}

export function createScene(t: LiveTestApp, body: SceneCreateBody): Promise<Scene> {
  return t.api.ok(sceneLinkageRoutes.create, { body });
}

export async function sendTemperature(t: BoilerApp, temperature: number): Promise<void> {
  await t.mqtt.publishAsync('v1/devices/me/telemetry', JSON.stringify({ temperature }), { qos: 1 });
}

export async function alarmsOf(t: LiveTestApp, query: Record<string, string | number> = {}): Promise<Alarm[]> {
  return (await t.api.ok(alarmRoutes.list, { query: { pageSize: 100, ...query } })).items;
}

/** A boiler whose scene raises an `overheat` alarm (notifying every user) over 80, and an administrator's /api/ws socket. */
export async function watchedBoiler(): Promise<{ t: BoilerApp; ws: LiveClient }> {
  const t = await makeBoilerApp();
  await createScene(t, overheatScene(t.product.id));
  return { t, ws: await LiveClient.open(t, { token: t.token }) };
}
