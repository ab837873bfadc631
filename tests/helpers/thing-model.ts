/**
 * Thing-model test DSL over the contract: valid item bodies to vary one field at a time, calls for
 * items, publish, status and TSL, and an app whose event bus the test holds.
 */
import { expect } from 'vitest';
import type { Response } from 'light-my-request';
import type { Product, ProductBody } from '../../server/contract/product.ts';
import {
  thingModelRoutes,
  type DataType,
  type ThingModelItem,
  type ThingModelItemBody,
  type ThingModelParam,
  type ThingModelStatus,
} from '../../server/contract/thing-model.ts';
import type { AppOptions } from '../../server/app.ts';
import { EventBus, type Events } from '../../server/lib/event-bus.ts';
import type { ThingModelService } from '../../server/modules/thing-model/thing-model-service.ts';
import { ContractClient, DeviceApi, uniqueName } from './devices.ts';
import { moduleServices } from './services.ts';
import { signIn } from './session.ts';
import { makeProvisionedApp } from './setup.ts';
import type { TestApp } from './app.ts';
import { expectError } from './error-body.ts';

export const intType = (specs: Partial<{ min: unknown; max: unknown; step: unknown; unit: unknown; unitName: unknown }> = {}): DataType =>
  ({ type: 'INT', specs: { min: 0, max: 100, step: 1, unit: '°C', unitName: 'Celsius', ...specs } }) as DataType;

/** A valid read-only INT property; `overrides` replace top-level fields. */
export function propertyBody(deviceProfileId: string, overrides: Record<string, unknown> = {}): ThingModelItemBody {
  return {
    deviceProfileId,
    functionType: 'properties',
    functionName: '温度',
    identifier: uniqueName('temperature'),
    accessMode: 'r',
    functionJson: { dataType: intType() },
    ...overrides,
  } as ThingModelItemBody;
}

/** A property whose data type is `dataType` (sent as given, so refusal tests can break it). */
export function propertyOf(deviceProfileId: string, dataType: unknown, overrides: Record<string, unknown> = {}): ThingModelItemBody {
  return propertyBody(deviceProfileId, { functionJson: { dataType }, ...overrides });
}

export function param(identifier: string, dataType: DataType = intType(), functionName = identifier): ThingModelParam {
  return { identifier, functionName, dataType };
}

export function serviceBody(deviceProfileId: string, overrides: Record<string, unknown> = {}): ThingModelItemBody {
  return {
    deviceProfileId,
    functionType: 'services',
    functionName: '设置阈值',
    identifier: uniqueName('setThreshold'),
    callType: 'ASYNC',
    functionJson: { inputData: [param('threshold')], outputData: [param('result', { type: 'BOOL', specs: { '0': 'fail', '1': 'ok' } })] },
    ...overrides,
  } as ThingModelItemBody;
}

export function eventBody(deviceProfileId: string, overrides: Record<string, unknown> = {}): ThingModelItemBody {
  return {
    deviceProfileId,
    functionType: 'events',
    functionName: '过温告警',
    identifier: uniqueName('overheat'),
    eventType: 'ALERT',
    functionJson: { outputData: [param('temperature')] },
    ...overrides,
  } as ThingModelItemBody;
}

export class ThingModelApi extends DeviceApi {
  createItem(body: ThingModelItemBody): Promise<ThingModelItem> {
    return this.ok(thingModelRoutes.create, { body });
  }

  /** A refusal's raw response for a create. */
  refuse(body: unknown): ReturnType<ContractClient['call']> {
    return this.call(thingModelRoutes.create, { body: body as Record<string, unknown>, lang: 'en-US' });
  }

  async items(deviceProfileId: string, query: Record<string, string | number> = {}): Promise<ThingModelItem[]> {
    return (await this.ok(thingModelRoutes.list, { params: { deviceProfileId }, query: { pageSize: 100, ...query } })).items;
  }

  status(deviceProfileId: string): Promise<ThingModelStatus> {
    return this.ok(thingModelRoutes.status, { params: { deviceProfileId } });
  }

  publish(deviceProfileId: string): Promise<ThingModelStatus> {
    return this.ok(thingModelRoutes.publish, { params: { deviceProfileId } });
  }

  /** A Modbus-RTU TCP product. */
  createModbusProduct(body: Partial<ProductBody> = {}): Promise<Product> {
    return this.createProduct({ transportType: 'TCP', tcpProtocolType: 'MODBUS_RTU', tcpAuthType: 'REGISTER_SEND', ...body });
  }
}

export interface ThingModelTestApp extends TestApp {
  api: ThingModelApi;
  anonymous: ContractClient;
  bus: EventBus;
  /** Every event of `name` the server announced so far. */
  heard<K extends keyof Events>(name: K): Events[K][];
}

/** A licensed gateway with an administrator signed in, whose event bus the test holds. */
export async function makeThingModelApp(tuning?: AppOptions['tuning']): Promise<ThingModelTestApp> {
  const bus = new EventBus();
  const t = await makeProvisionedApp({ bus, tuning });
  const { token } = await signIn(t.app, t.admin.username, t.admin.password);
  const log = new Map<string, unknown[]>();
  const heard = <K extends keyof Events>(name: K): Events[K][] => {
    if (!log.has(name)) throw new Error(`listen to ${name} before it happens: call heard('${name}') first`);
    return log.get(name) as Events[K][];
  };
  for (const name of ['thingModel.published', 'product.published'] as const) {
    log.set(name, []);
    bus.on(name, (payload) => log.get(name)!.push(payload));
  }
  return { ...t, bus, heard, api: new ThingModelApi(t.app, token), anonymous: new ContractClient(t.app, null) };
}

/**
 * A thing-model service over a second connection to the app's database: what another module holds
 * as `thingModels` (its cache starts empty, so it reads what the app committed).
 */
export function thingModelsOf(t: TestApp): ThingModelService {
  return moduleServices(t, ['category', 'product', 'thing-model']).thingModels;
}

/** A 400 code 31 whose key is `key` and whose details name `field` (e.g. `body.identifier`) with it. */
export function expectRefused(res: Response, key: string, field: string): void {
  const body = expectError(res, 400, 31, key);
  expect(body.details, res.body).toContainEqual(expect.objectContaining({ field, key }));
}
