/**
 * A product and a device made through the HTTP API with the administrator's token, as a factory
 * script would, for e2e specs that need a row on the device list before the browser opens it.
 */
import type { AlarmSeverity } from '../../server/contract/alarm.ts';
import type { DeviceCredentials } from '../../server/contract/credentials.ts';
import type { Device } from '../../server/contract/device.ts';
import type { Product } from '../../server/contract/product.ts';
import type { SceneCreateBody } from '../../server/contract/scene-linkage.ts';
import type { ThingModelItemBody } from '../../server/contract/thing-model.ts';
import type { E2eGateway } from './e2e-gateway.ts';

/** A JSON POST to the gateway with the administrator's bearer token; throws on a refusal. */
export type AdminPost = <T>(url: string, body: object) => Promise<T>;

/** The device reports `values` over the HTTP device API with its access token, as a meter does; throws on a refusal. */
export async function reportTelemetry(gateway: E2eGateway, deviceId: string, values: Record<string, unknown>): Promise<void> {
  const { token } = await gateway.login();
  const res = await fetch(`${gateway.url}/api/yt/device/${deviceId}/credentials`, { headers: { authorization: `Bearer ${token}` } });
  const { credentialsId } = (await res.json()) as DeviceCredentials;
  const sent = await fetch(`${gateway.url}/api/v1/${credentialsId}/telemetry`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(values) });
  if (sent.status !== 200) throw new Error(`device telemetry answered ${sent.status}: ${await sent.text()}`);
}

export async function adminPost(gateway: E2eGateway): Promise<AdminPost> {
  const { token } = await gateway.login();
  return async <T>(url: string, body: object): Promise<T> => {
    const res = await fetch(`${gateway.url}${url}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`POST ${url} answered ${res.status}: ${await res.text()}`);
    return (await res.json()) as T;
  };
}

export async function seedDevice(gateway: E2eGateway, names: { product: string; device: string; alias?: string }): Promise<{ product: Product; device: Device }> {
  const post = await adminPost(gateway);
  const product = await post<Product>('/api/yt/device_profile', { name: names.product, deviceType: 'DIRECT_CONNECTION', transportType: 'MQTT' });
  const device = await post<Device>('/api/yt/device', { name: names.device, alias: names.alias, deviceProfileId: product.id, deviceType: 'DIRECT_CONNECTION' });
  return { product, device };
}

/** The body of a DOUBLE `temperature` property (−40..125 °C) of a product's thing model. */
export function temperatureProperty(deviceProfileId: string): ThingModelItemBody {
  return {
    deviceProfileId,
    functionType: 'properties',
    functionName: '温度',
    identifier: 'temperature',
    accessMode: 'r',
    functionJson: { dataType: { type: 'DOUBLE', specs: { min: -40, max: 125, step: 0.1, unit: '°C', unitName: '摄氏度' } } },
  };
}

/** A scene raising an alarm when the product's devices report a `temperature` above `over` (never cleared by itself). */
export function overheatSceneBody(deviceProfileId: string, o: { name: string; over: number; severity: AlarmSeverity; alarmType: string }): SceneCreateBody {
  return {
    name: o.name,
    enabled: true,
    triggers: [{ type: 'DEVICE_TRIGGER', deviceTriggerType: 'TIME_SERIES', deviceProfileId, deviceIds: [], key: 'temperature', operation: 'GREATER', valueType: 'NUMERIC', value: o.over, conditionType: 'SIMPLE' }],
    conditions: [],
    actions: [{ type: 'MSG_NOTIFY', severity: o.severity, alarmType: o.alarmType }],
    clearRules: [null],
  };
}
