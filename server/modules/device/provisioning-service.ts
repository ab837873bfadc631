/**
 * Device provisioning (server/contract/provisioning.ts): a device presents its product's provision
 * key and secret and gets a new device of its own with credentials, in ThingsBoard's answer shapes.
 * One method for both transports: the HTTP route passes the parsed body, the MQTT broker the
 * payload of `/provision/request`.
 */
import { timingSafeEqual } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { Compile } from 'typebox/compile';
import type { CredentialsWrite } from '../../contract/credentials.ts';
import type { DeviceType, Product } from '../../contract/product.ts';
import {
  PROVISION_FAILURE_LIMIT,
  PROVISION_FAILURE_MSG,
  PROVISION_FAILURE_WINDOW_MS,
  PROVISION_NOT_FOUND_MSG,
  ProvisionRequestSchema,
  type ProvisionAnswer,
  type ProvisionRequest,
} from '../../contract/provisioning.ts';
import { reportedNameProblem } from '../../contract/rules/device.ts';
import { AppError } from '../../lib/app-error.ts';
import { FailureWindow } from '../../lib/failure-counters.ts';
import { ALPHANUMERIC, randomText } from '../../lib/random-text.ts';
import type { ProductService } from '../product/product-service.ts';
import type { CredentialsService } from './credentials-service.ts';
import type { DeviceService } from './device-service.ts';

const requestShape = Compile(ProvisionRequestSchema);

/** ThingsBoard names a device that asked without a name with 20 random letters and digits. */
const GENERATED_NAME_LENGTH = 20;

const notFound: ProvisionAnswer = { status: 'NOT_FOUND', errorMsg: PROVISION_NOT_FOUND_MSG };
const failure: ProvisionAnswer = { status: 'FAILURE', errorMsg: PROVISION_FAILURE_MSG };

/** Why a request failed, for the log (never the secret). */
class Refused extends Error {
  constructor(
    readonly answer: ProvisionAnswer,
    readonly reason: string,
  ) {
    super(reason);
  }
}

export interface ProvisioningServiceDeps {
  devices: Pick<DeviceService, 'createProvisioned'>;
  credentials: Pick<CredentialsService, 'writerOf' | 'get'>;
  products: Pick<ProductService, 'findByProvisionKey'>;
  log: FastifyBaseLogger;
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** A request's JSON: bytes or text (MQTT) are parsed, an object (HTTP) is taken as it is. */
function parsed(request: unknown): unknown {
  if (typeof request !== 'string' && !(request instanceof Uint8Array)) return request;
  try {
    return JSON.parse(typeof request === 'string' ? request : Buffer.from(request).toString('utf8'));
  } catch {
    throw new Refused(failure, 'malformed JSON');
  }
}

/** Blank text is left out, as ThingsBoard reads an empty field. */
function given(value: string | undefined): string | null {
  return value === undefined || value.trim() === '' ? null : value;
}

export class ProvisioningService {
  /** Failed attempts per source address: a secret must not be guessable at speed. */
  private readonly failures = new FailureWindow(PROVISION_FAILURE_LIMIT, PROVISION_FAILURE_WINDOW_MS);

  constructor(private readonly deps: ProvisioningServiceDeps) {}

  /** Milliseconds until `address` may try again after too many failures; 0 when it may now. */
  retryAfterMs(address: string, now = Date.now()): number {
    return this.failures.retryAfterMs(address, now);
  }

  /**
   * ThingsBoard's provision request → its answer. `address` is where it came from (the socket's),
   * for the failure count; while that address is locked the answer is FAILURE naming the wait.
   */
  async provision(request: unknown, address = ''): Promise<ProvisionAnswer> {
    const now = Date.now();
    const waitMs = this.failures.retryAfterMs(address, now);
    if (waitMs > 0) {
      return { status: 'FAILURE', errorMsg: `Too many failed provision attempts; retry in ${Math.ceil(waitMs / 1000)} s` };
    }
    try {
      return await this.provisioned(parsed(request));
    } catch (err) {
      if (!(err instanceof Refused)) throw err;
      // Only NOT_FOUND tells a guesser something about a key or secret; the others need both right.
      if (err.answer.status === 'NOT_FOUND') this.failures.record(address, now);
      this.deps.log.warn({ remote: address, reason: err.reason, status: err.answer.status }, 'device provisioning refused');
      return err.answer;
    }
  }

  private async provisioned(json: unknown): Promise<ProvisionAnswer> {
    if (!requestShape.Check(json)) throw new Refused(failure, 'request shape');
    const request = json;
    const product = this.productFor(request);
    const name = this.nameOf(request);
    const body = this.credentialsOf(request);
    const deviceType = this.deviceTypeOf(request, product);
    let deviceId: string;
    try {
      const write = body && (await this.deps.credentials.writerOf(body));
      deviceId = this.deps.devices.createProvisioned(name, { id: product.id, deviceType }, write).id;
    } catch (err) {
      // A taken name, taken or malformed credentials, the licence's device limit: ThingsBoard's FAILURE.
      if (err instanceof AppError) throw new Refused(failure, err.key);
      throw err;
    }
    this.deps.log.info({ deviceId, productId: product.id }, 'device provisioned');
    return this.answerOf(request, deviceId);
  }

  /** The product whose key and secret these are, with provisioning on; else NOT_FOUND. */
  private productFor(request: ProvisionRequest): Product {
    const key = given(request.provisionDeviceKey);
    const secret = given(request.provisionDeviceSecret);
    if (key === null || secret === null) throw new Refused(notFound, 'key or secret missing');
    const product = this.deps.products.findByProvisionKey(key);
    if (!product || product.provisionDeviceSecret === null || !sameText(secret, product.provisionDeviceSecret)) {
      throw new Refused(notFound, 'unknown key or wrong secret');
    }
    if (!product.provisionEnabled) throw new Refused(notFound, 'provisioning is off for the product');
    return product;
  }

  /**
   * The product's type, or GATEWAY when the request says `gateway: true`, as ThingsBoard makes the
   * new device a gateway: a direct device may be one (device-rules.ts), a sub-device may not.
   */
  private deviceTypeOf(request: ProvisionRequest, product: Product): DeviceType {
    if (request.gateway !== true) return product.deviceType;
    if (product.deviceType === 'SENSOR') throw new Refused(failure, 'gateway asked on a sub-device product');
    return 'GATEWAY';
  }

  /** The name asked for, trimmed (ThingsBoard trims it), or a generated one when none was given. */
  private nameOf(request: ProvisionRequest): string {
    if (request.deviceName === undefined || request.deviceName === '') return randomText(ALPHANUMERIC, GENERATED_NAME_LENGTH);
    const name = request.deviceName.trim();
    if (reportedNameProblem(name)) throw new Refused(failure, 'device name blank or unprintable');
    return name;
  }

  /** The credentials asked for as the credentials API's body; undefined: a generated token. */
  private credentialsOf(request: ProvisionRequest): CredentialsWrite | undefined {
    switch (request.credentialsType ?? 'ACCESS_TOKEN') {
      case 'ACCESS_TOKEN': {
        const token = given(request.token);
        return token === null ? undefined : { credentialsType: 'ACCESS_TOKEN', credentialsId: token };
      }
      case 'MQTT_BASIC': {
        const value = { clientId: given(request.clientId), userName: given(request.username), password: given(request.password) };
        return { credentialsType: 'MQTT_BASIC', credentialsValue: JSON.stringify(value) };
      }
      case 'X509_CERTIFICATE':
        return { credentialsType: 'X509_CERTIFICATE', credentialsValue: given(request.hash) };
    }
  }

  /**
   * ThingsBoard's SUCCESS answer: the access token, the MQTT credentials as an object (with the
   * password the device chose: only a hash of it is stored), or the certificate as the device sent it.
   */
  private answerOf(request: ProvisionRequest, deviceId: string): ProvisionAnswer {
    const stored = this.deps.credentials.get(deviceId);
    switch (stored.credentialsType) {
      case 'ACCESS_TOKEN':
        return { status: 'SUCCESS', credentialsType: 'ACCESS_TOKEN', credentialsValue: stored.credentialsId };
      case 'MQTT_BASIC':
        return {
          status: 'SUCCESS',
          credentialsType: 'MQTT_BASIC',
          credentialsValue: { clientId: given(request.clientId), userName: given(request.username), password: given(request.password) },
        };
      case 'X509_CERTIFICATE':
        return { status: 'SUCCESS', credentialsType: 'X509_CERTIFICATE', credentialsValue: request.hash ?? '' };
    }
  }
}
