/**
 * The MQTT topics a device of a product uses (server/contract/device-api.ts)
 * with payload examples generated from its thing model: telemetry and attributes from the
 * properties, events from the events, RPC requests from the services and writable properties, RPC
 * responses from the services' outputs, and the gateway topics for GATEWAY products. Pure.
 */
import { ATTRIBUTE_RPC_METHOD } from '../../../server/contract/command.ts';
import { deviceTopics } from '../../../server/contract/device-api.ts';
import type { DeviceType } from '../../../server/contract/product.ts';
import type { DataType, ThingModelParam, ThingModelTsl } from '../../../server/contract/thing-model.ts';

/** Who publishes, seen from the device. */
export type TopicDirection = 'publish' | 'subscribe';

export type TopicPurpose =
  | 'telemetry'
  | 'attributes'
  | 'event'
  | 'rpcRequest'
  | 'rpcResponse'
  | 'gatewayConnect'
  | 'gatewayTelemetry'
  | 'gatewayRpc';

export interface TopicExample {
  topic: string;
  direction: TopicDirection;
  purpose: TopicPurpose;
  /** The thing-model item the example is about (a service or event identifier), if any. */
  subject?: string;
  payload: unknown;
}

/** A third of the way up the range, on the step's grid from the minimum: inside it and plausible. */
function numberExample(min: number, max: number, step: number | undefined, integer: boolean): number {
  const unit = step ?? (integer ? 1 : 0.01);
  const decimals = Number.isInteger(unit) ? 0 : Math.min(6, String(unit).split('.')[1]?.length ?? 2);
  const value = min + Math.round((max - min) / 3 / unit) * unit;
  return Number(Math.min(max, value).toFixed(decimals));
}

/** A plausible value of a data type: a number inside the range, true, the first enum value… */
export function exampleValue(dataType: DataType): unknown {
  switch (dataType.type) {
    case 'INT':
    case 'DOUBLE': {
      const { min, max, step } = dataType.specs;
      return numberExample(min, max, step, dataType.type === 'INT');
    }
    case 'TEXT':
      return 'text';
    case 'BOOL':
      return true;
    case 'ENUM':
      return dataType.specs[0]?.value ?? 0;
    case 'STRUCT':
      return paramsExample(dataType.specs);
  }
}

export function paramsExample(params: readonly ThingModelParam[]): Record<string, unknown> {
  return Object.fromEntries(params.map((p) => [p.identifier, exampleValue(p.dataType)]));
}

/** Example request ids: the server numbers its RPCs; any integer shows the shape. */
const REQUEST_ID = 1;
const SUB_DEVICE = 'SubDevice-01';
const EXAMPLE_TS = 1_700_000_000_000;

export function topicExamples(tsl: Pick<ThingModelTsl, 'properties' | 'services' | 'events'>, deviceType: DeviceType): TopicExample[] {
  const values = Object.fromEntries(tsl.properties.map((p) => [p.identifier, exampleValue(p.functionJson.dataType)]));
  const writable = Object.fromEntries(
    tsl.properties.filter((p) => p.accessMode === 'rw').map((p) => [p.identifier, values[p.identifier]]),
  );
  const rows: TopicExample[] = [];
  if (tsl.properties.length) {
    rows.push({ topic: deviceTopics.telemetry, direction: 'publish', purpose: 'telemetry', payload: { ts: EXAMPLE_TS, values } });
    rows.push({ topic: deviceTopics.attributes, direction: 'publish', purpose: 'attributes', payload: values });
  }
  for (const event of tsl.events) {
    rows.push({
      topic: deviceTopics.events,
      direction: 'publish',
      purpose: 'event',
      subject: event.identifier,
      payload: { identifier: event.identifier, type: event.eventType, params: paramsExample(event.functionJson.outputData) },
    });
  }
  for (const service of tsl.services) {
    rows.push({
      topic: `${deviceTopics.rpcRequest}+`,
      direction: 'subscribe',
      purpose: 'rpcRequest',
      subject: service.identifier,
      payload: { id: REQUEST_ID, method: service.identifier, params: paramsExample(service.functionJson.inputData) },
    });
    rows.push({
      topic: `${deviceTopics.rpcResponse}${REQUEST_ID}`,
      direction: 'publish',
      purpose: 'rpcResponse',
      subject: service.identifier,
      payload: paramsExample(service.functionJson.outputData),
    });
  }
  if (Object.keys(writable).length) {
    rows.push({
      topic: `${deviceTopics.rpcRequest}+`,
      direction: 'subscribe',
      purpose: 'rpcRequest',
      subject: ATTRIBUTE_RPC_METHOD,
      payload: { id: REQUEST_ID, method: ATTRIBUTE_RPC_METHOD, params: writable },
    });
  }
  // Sub-devices report under their own products' models: their values are placeholders here.
  if (deviceType === 'GATEWAY') {
    rows.push({ topic: deviceTopics.gatewayConnect, direction: 'publish', purpose: 'gatewayConnect', payload: { device: SUB_DEVICE } });
    rows.push({
      topic: deviceTopics.gatewayTelemetry,
      direction: 'publish',
      purpose: 'gatewayTelemetry',
      payload: { [SUB_DEVICE]: [{ ts: EXAMPLE_TS, values: { key: 'value' } }] },
    });
    rows.push({
      topic: deviceTopics.gatewayRpc,
      direction: 'subscribe',
      purpose: 'gatewayRpc',
      payload: { device: SUB_DEVICE, data: { id: REQUEST_ID, method: 'method', params: {} } },
    });
  }
  return rows;
}
