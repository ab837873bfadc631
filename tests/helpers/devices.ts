/**
 * A small DSL over the device-management contract for tests: `api.call(route, …)` for any route
 * (raw response, for refusals), `api.ok(route, …)` for the typed answer, and `createOrganization`,
 * `createCategory`, `createProduct`, `createDevice` with valid defaults. Bodies and answers are
 * typed by server/contract, so fixtures cannot drift from it.
 */
import type { Response } from 'light-my-request';
import type { Static, TSchema } from 'typebox';
import type { App } from '../../server/app.ts';
import { categoryRoutes, type Category, type CategoryBody } from '../../server/contract/category.ts';
import { deviceRoutes, type Device, type DeviceBody } from '../../server/contract/device.ts';
import { organizationRoutes, type Organization, type OrganizationBody } from '../../server/contract/organization.ts';
import { productRoutes, type Product, type ProductBody } from '../../server/contract/product.ts';
import type { RouteDef } from '../../server/contract/route.ts';
import { telemetryRoutes } from '../../server/contract/telemetry.ts';
import type { TestApp } from './app.ts';
import { signIn } from './session.ts';
import { makeProvisionedApp, type AdminCredentials } from './setup.ts';

type SchemaAt<S, K extends string> = S extends Record<K, infer T extends TSchema> ? Static<T> : undefined;
export type ResponseOf<R extends RouteDef> = R['schema']['response'] extends Record<200, infer T extends TSchema> ? Static<T> : unknown;
export type BodyOf<R extends RouteDef> = SchemaAt<R['schema'], 'body'>;

export interface CallInput<R extends RouteDef> {
  params?: Record<string, string>;
  query?: Record<string, string | number | boolean | undefined>;
  /** The route's body; `unknown` so refusal tests can send what the schema forbids. */
  body?: BodyOf<R> | Record<string, unknown>;
  /** Raw payload instead of a JSON body (multipart uploads). */
  payload?: Buffer;
  headers?: Record<string, string>;
  /** Accept-Language, e.g. 'en-US'. */
  lang?: string;
}

export class ContractClient {
  constructor(
    readonly app: App,
    readonly token: string | null,
  ) {}

  /** Calls `route` as the signed-in user (or anonymously when the token is null). */
  call<R extends RouteDef>(route: R, input: CallInput<R> = {}): Promise<Response> {
    const url = route.url.replace(/:(\w+)/g, (_, name: string) => {
      const value = input.params?.[name];
      if (value === undefined) throw new Error(`missing path parameter ${name} for ${route.url}`);
      return encodeURIComponent(value);
    });
    const query: Record<string, string> = {};
    for (const [k, v] of Object.entries(input.query ?? {})) if (v !== undefined) query[k] = String(v);
    // Tests read typed values as the console does; one that names the option (even as undefined) gets what it names.
    if ((route as RouteDef) === telemetryRoutes.timeseries && !('useStrictDataTypes' in (input.query ?? {}))) query.useStrictDataTypes = 'true';
    const headers: Record<string, string> = { ...input.headers };
    if (this.token) headers.authorization = `Bearer ${this.token}`;
    if (input.lang) headers['accept-language'] = input.lang;
    return this.app.inject({
      method: route.method,
      url,
      query,
      headers,
      ...(input.payload ? { payload: input.payload } : input.body !== undefined ? { payload: input.body as object } : {}),
    });
  }

  /** The typed 200 answer; anything else fails the test with the error body. */
  async ok<R extends RouteDef>(route: R, input: CallInput<R> = {}): Promise<ResponseOf<R>> {
    const res = await this.call(route, input);
    if (res.statusCode !== 200) throw new Error(`${route.method} ${route.url} answered ${res.statusCode}: ${res.body}`);
    return (res.headers['content-type']?.toString().includes('json') ? res.json() : res.body) as ResponseOf<R>;
  }
}

let sequence = 0;
/** A name that is new in this test process and valid by the name rule. */
export function uniqueName(prefix: string): string {
  sequence += 1;
  return `${prefix}_${sequence}`;
}

export class DeviceApi extends ContractClient {
  createOrganization(body: Partial<OrganizationBody> = {}): Promise<Organization> {
    return this.ok(organizationRoutes.create, { body: { name: uniqueName('org'), ...body } });
  }

  createCategory(body: Partial<CategoryBody> = {}): Promise<Category> {
    return this.ok(categoryRoutes.create, { body: { name: uniqueName('category'), ...body } });
  }

  /** A DIRECT_CONNECTION product over MQTT unless told otherwise. */
  createProduct(body: Partial<ProductBody> = {}): Promise<Product> {
    return this.ok(productRoutes.create, {
      body: { name: uniqueName('product'), deviceType: 'DIRECT_CONNECTION', transportType: 'MQTT', ...body },
    });
  }

  /** Without a deviceProfileId, a new product of the requested device type is made for it. */
  async createDevice(body: Partial<DeviceBody> = {}): Promise<Device> {
    const deviceType = body.deviceType ?? 'DIRECT_CONNECTION';
    const deviceProfileId = body.deviceProfileId ?? (await this.createProduct({ deviceType })).id;
    return this.ok(deviceRoutes.create, { body: { name: uniqueName('device'), deviceType, ...body, deviceProfileId } });
  }
}

export interface DeviceTestApp extends TestApp {
  api: DeviceApi;
  /** The administrator the DSL is signed in as. */
  admin: AdminCredentials;
  /** The same routes without a token. */
  anonymous: ContractClient;
}

/** A licensed gateway with an administrator signed in, and the DSL over it. */
export async function makeDeviceApp(overrides: Parameters<typeof makeProvisionedApp>[0] = {}): Promise<DeviceTestApp> {
  const t = await makeProvisionedApp(overrides);
  const { token } = await signIn(t.app, t.admin.username, t.admin.password);
  return { ...t, api: new DeviceApi(t.app, token), anonymous: new ContractClient(t.app, null) };
}

