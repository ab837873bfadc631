/**
 * Device rules and writes: create (INACTIVE, with an access token, atomically), edit, bulk delete
 * guarded for gateways with sensors, favourite/public toggles, location; `createMany` for import and
 * batch generation.
 */
import type { DeleteResult } from '../../contract/common.ts';
import { ErrorCode } from '../../contract/errors.ts';
import type {
  Device,
  DeviceBody,
  DeviceListQuery,
  DeviceLocationBody,
  DevicePage,
  DeviceUpdateBody,
} from '../../contract/device.ts';
import type { Registration } from '../../contract/tcp-device.ts';
import { editedNameProblem, locationViolations, reportedNameProblem } from '../../contract/rules/device.ts';
import { transaction, type Db } from '../../db/sqlite.ts';
import { AppError } from '../../lib/app-error.ts';
import type { EventBus } from '../../lib/event-bus.ts';
import { assertNoViolations, notFound, refusedFor } from '../../lib/field-errors.ts';
import { newId } from '../../lib/ids.ts';
import { optionalText } from '../../lib/optional-text.ts';
import type { LicenseService } from '../license/license-service.ts';
import { inScope, type DeviceScope, type ScopedDevices } from '../../lib/device-scope.ts';
import type { OrganizationService } from '../organization/organization-service.ts';
import type { ProductService } from '../product/product-service.ts';
import type { CredentialsService } from './credentials-service.ts';
import { deviceViolations, draftOf, type DeviceDraft, type DeviceRefs } from './device-rules.ts';
import type { DeviceReader } from './device-reader.ts';
import type { DeviceRepository, DeviceRow } from './device-repository.ts';
import { newRegistrationCode } from './registration-code.ts';
import type { TcpDevice } from './tcp-device.ts';

/** The same bytes in the same notation (both normalized, server/contract/rules/tcp-registration.ts). */
function sameRegistration(a: Registration, b: Registration | null): boolean {
  return b !== null && a.format === b.format && a.value === b.value;
}

export interface DeviceServiceDeps {
  db: Db;
  bus: EventBus;
  devices: DeviceRepository;
  /** Devices with their product's and organization's names. */
  reader: DeviceReader;
  credentials: CredentialsService;
  products: Pick<ProductService, 'find' | 'sensorProductNamed' | 'tcpSettings'>;
  organizations: Pick<OrganizationService, 'exists'>;
  license: Pick<LicenseService, 'deviceLimit'>;
}

/** A device to create with its access token (null: generate one). */
export interface NewDevice {
  draft: DeviceDraft;
  token: string | null;
  /** Other credentials to store instead of the token (CredentialsService.writerOf), in the same transaction. */
  credentials?: (deviceId: string, now: number) => unknown;
}

/** A device with only its name, type, product and place filled in (the rest unset). */
function bareDraft(fields: Pick<DeviceDraft, 'name' | 'deviceType' | 'deviceProfileId' | 'organizationId' | 'gatewayId'>): DeviceDraft {
  return {
    alias: null, addressCode: null, label: null, longitude: null, latitude: null, address: null, isPublic: false, description: null,
    registration: null, modbusTcp: null, ...fields,
  };
}

export class DeviceService {
  constructor(private readonly deps: DeviceServiceDeps) {}

  /** What the device rules look up, straight from the database. */
  refs(): DeviceRefs {
    const { devices, products, organizations } = this.deps;
    return {
      productType: (id) => products.find(id)?.deviceType,
      organizationExists: (id) => organizations.exists(id),
      deviceType: (id) => devices.typeOf(id),
      nameOwner: (name) => devices.nameOwner(name),
      registrationOwner: (hex) => devices.registrationOwner(hex),
    };
  }

  /**
   * The same lookups remembered per id, for checking many rows against one product, organization
   * and gateway. Names are not remembered: each row's own name is looked up.
   */
  cachedRefs(): DeviceRefs {
    const direct = this.refs();
    const remember = <T>(lookup: (id: string) => T): ((id: string) => T) => {
      const seen = new Map<string, T>();
      return (id) => {
        if (!seen.has(id)) seen.set(id, lookup(id));
        return seen.get(id) as T;
      };
    };
    return {
      productType: remember((id) => direct.productType(id)),
      organizationExists: remember((id) => direct.organizationExists(id)),
      deviceType: remember((id) => direct.deviceType(id)),
      nameOwner: (name) => direct.nameOwner(name),
      registrationOwner: (hex) => direct.registrationOwner(hex),
    };
  }

  /** Devices of TCP products with their registration bytes, address codes and polling settings. */
  tcpDevices(): TcpDevice[] {
    return this.deps.devices.tcpDevices(this.deps.products.tcpSettings());
  }

  /** `scope`: only the devices of those organizations (a customer's list, server/lib/device-scope.ts). */
  page(query: DeviceListQuery, scope: DeviceScope = null): DevicePage {
    return this.deps.reader.page(query, scope);
  }

  /** The products at least one device of these organizations uses (a customer's product scope). */
  productIdsIn(organizationIds: readonly string[]): string[] {
    return this.deps.devices.productIdsIn(organizationIds);
  }

  get(id: string): Device {
    const device = this.deps.reader.findById(id);
    if (!device) throw notFound();
    return device;
  }

  /** The device reads of `scope` (server/lib/device-scope.ts): the live host hands them to every live command. */
  within(scope: DeviceScope): ScopedDevices {
    const visible = (id: string): boolean => {
      if (scope === null) return this.deps.devices.typeOf(id) !== undefined;
      const device = this.deps.devices.findById(id);
      return device !== undefined && inScope(scope, device.organizationId ?? null);
    };
    return {
      scope,
      get: (id) => {
        if (!visible(id)) throw notFound();
        return this.get(id);
      },
      exists: visible,
      page: (query) => this.page(query, scope),
      count: () => this.page({ page: 1, pageSize: 1 }, scope).total,
    };
  }

  create(body: DeviceBody): Device {
    const [id] = this.createMany([{ draft: draftOf(body), token: null }], true);
    return this.get(id!);
  }

  /**
   * Inserts devices and their access tokens in one transaction (the caller's, when inside one).
   * With `check`, each draft is checked first; import and batch generation check before calling.
   * All or none: past the licence's device limit nothing is inserted.
   */
  createMany(items: readonly NewDevice[], check = false): string[] {
    const { devices, credentials } = this.deps;
    const created = transaction(this.deps.db, () => {
      // Counted inside the write transaction (BEGIN IMMEDIATE): no other create can slip in
      // between the count and the inserts, from this connection or another.
      this.assertWithinLicence(items.length);
      const refs = this.refs();
      const tcpProducts = this.deps.products.tcpSettings();
      const now = Date.now();
      return items.map(({ draft, token, credentials: writeCredentials }) => {
        if (check) assertNoViolations(deviceViolations(draft, undefined, refs));
        const row: DeviceRow = {
          ...draft,
          registration: this.registrationFor(draft, null, tcpProducts),
          id: newId(),
          isCollect: false,
          deviceState: 'INACTIVE',
          lastOnlineTime: null,
          lastOfflineTime: null,
          createdTime: now,
          updatedTime: now,
        };
        devices.insert(row);
        credentials.issueAccessToken(row.id, token ?? credentials.generateToken(), now);
        writeCredentials?.(row.id, now);
        return row;
      });
    });
    for (const row of created) this.deps.bus.emit('device.created', { deviceId: row.id, deviceProfileId: row.deviceProfileId });
    return created.map((row) => row.id);
  }

  /**
   * The device called `name` that gateway `gatewayId` reports for: the existing device of that
   * name, whatever it is (the caller decides whether the gateway may speak for it), or a new SENSOR
   * attached to the gateway, in its organization, with the product named `type` (a DRAFT SENSOR
   * product over MQTT made on first use). ThingsBoard's find-or-create of a gateway's device.
   * A new device is a real creation: held to the licence (`error.license.deviceLimit`), announced
   * with `device.created`. Refused: a name or type that is blank or unprintable
   * (`error.subDevice.nameInvalid`, `error.subDevice.typeInvalid`), a `type` naming a product that
   * is not a SENSOR product (`error.subDevice.productNotSensor`).
   */
  subDeviceNamed(gatewayId: string, name: string, type: string): Device {
    const refused = (key: 'error.subDevice.nameInvalid' | 'error.subDevice.typeInvalid' | 'error.subDevice.productNotSensor') =>
      new AppError(ErrorCode.BAD_REQUEST_PARAMS, key, { name, type });
    return transaction(this.deps.db, () => {
      const owner = this.deps.devices.nameOwner(name);
      if (owner !== undefined) return this.get(owner);
      if (reportedNameProblem(name)) throw refused('error.subDevice.nameInvalid');
      if (reportedNameProblem(type)) throw refused('error.subDevice.typeInvalid');
      const gateway = this.get(gatewayId);
      // The product made here is undone with the device when the licence refuses it (one transaction).
      const product = this.deps.products.sensorProductNamed(type);
      if (product.deviceType !== 'SENSOR') throw refused('error.subDevice.productNotSensor');
      const draft = bareDraft({ name, deviceType: 'SENSOR', deviceProfileId: product.id, organizationId: gateway.organizationId, gatewayId });
      const [id] = this.createMany([{ draft, token: null }], true);
      return this.get(id!);
    });
  }

  /**
   * A device a provisioning request creates, named as it asked (a reported name), with the product's
   * type and the credentials `credentials` writes (a generated token when left out). The caller
   * checked the name; it must be new (`error.device.nameTaken`). Held to the licence.
   */
  createProvisioned(name: string, product: { id: string; deviceType: Device['deviceType'] }, credentials?: NewDevice['credentials']): Device {
    const draft = bareDraft({ name, deviceType: product.deviceType, deviceProfileId: product.id, organizationId: null, gatewayId: null });
    const [id] = this.createMany([{ draft, token: null, credentials }], true);
    return this.get(id!);
  }

  private assertWithinLicence(adding: number): void {
    const max = this.deps.license.deviceLimit();
    if (max === null || adding === 0) return;
    const used = this.deps.devices.count();
    if (used + adding > max) throw new AppError(ErrorCode.LIMIT_EXCEEDED, 'error.license.deviceLimit', { max, used, count: adding });
  }

  /**
   * The registration a device is stored with: the one given; else (left out or null) the current
   * one; else, for a device of a TCP product, a new code (registration-code.ts). Never the access
   * token, which works on MQTT and HTTP too.
   */
  private registrationFor(draft: DeviceDraft, current: Registration | null, tcpProducts: ReadonlyMap<string, unknown>): Registration | null {
    if (draft.registration) return draft.registration;
    if (current) return current;
    return tcpProducts.has(draft.deviceProfileId) ? newRegistrationCode((hex) => this.deps.devices.registrationOwner(hex)) : null;
  }

  /**
   * `mayChangeRegistration`: whether the caller holds `device:credentials:update`; without it a
   * registration other than the current one is refused (403 code 20), as a new access token is.
   */
  update(body: DeviceUpdateBody, { mayChangeRegistration }: { mayChangeRegistration: boolean }): Device {
    const device = transaction(this.deps.db, () => {
      const current = this.get(body.id);
      const given = draftOf(body);
      const draft = { ...given, registration: this.registrationFor(given, current.registration, this.deps.products.tcpSettings()) };
      if (given.registration && !sameRegistration(given.registration, current.registration) && !mayChangeRegistration) {
        throw new AppError(ErrorCode.PERMISSION_DENIED, 'error.permissionDenied');
      }
      const found = deviceViolations(draft, current.id, this.refs());
      const name = editedNameProblem(draft.name, current.name);
      if (name) found.push({ field: 'name', key: name.key });
      if (current.deviceType === 'GATEWAY' && draft.deviceType !== 'GATEWAY') {
        const sensors = this.deps.devices.sensorsOf(current.id);
        if (sensors.length) found.push({ field: 'deviceType', key: 'error.device.gatewayHasSensors', params: { names: current.name } });
      }
      assertNoViolations(found);
      this.deps.devices.update({ ...current, ...draft, updatedTime: Date.now() });
      return this.get(current.id);
    });
    this.deps.bus.emit('device.updated', { deviceId: device.id });
    return device;
  }

  /**
   * All or nothing: a gateway whose sensors are not all in `ids` is refused. Unknown ids are
   * skipped. Sensors go before gateways; credentials go with their device.
   */
  delete(ids: readonly string[]): DeleteResult {
    const { devices } = this.deps;
    const targets = transaction(this.deps.db, () => {
      const found = [...new Set(ids)].map((id) => this.deps.reader.findById(id)).filter((d): d is Device => !!d);
      const doomed = new Set(found.map((d) => d.id));
      const guarded = found.filter((d) => d.deviceType === 'GATEWAY' && devices.sensorsOf(d.id).some((s) => !doomed.has(s.id)));
      if (guarded.length) throw refusedFor('error.device.gatewayHasSensors', guarded.map((d) => d.name));
      const ordered = [...found.filter((d) => d.deviceType !== 'GATEWAY'), ...found.filter((d) => d.deviceType === 'GATEWAY')];
      for (const d of ordered) devices.delete(d.id);
      return ordered;
    });
    for (const d of targets) this.deps.bus.emit('device.deleted', { deviceId: d.id });
    return { deleted: targets.length };
  }

  /**
   * Called by the transport before it accepts connections: whatever was ONLINE when the process
   * last stopped is OFFLINE now. Returns how many devices changed.
   */
  markAllOffline(time = Date.now()): number {
    return this.deps.devices.setAllOffline(time);
  }

  setCollect(id: string, isCollect: boolean): Device {
    return this.change(id, (time) => this.deps.devices.setCollect(id, isCollect, time));
  }

  setPublic(id: string, isPublic: boolean): Device {
    return this.change(id, (time) => this.deps.devices.setPublic(id, isPublic, time));
  }

  setLocation(id: string, body: DeviceLocationBody): Device {
    return this.change(id, (time) => {
      assertNoViolations(locationViolations(body.longitude, body.latitude));
      this.deps.devices.setLocation(id, { longitude: body.longitude, latitude: body.latitude, address: optionalText(body.address) }, time);
    });
  }

  private change(id: string, write: (time: number) => void): Device {
    const device = transaction(this.deps.db, () => {
      this.get(id);
      write(Date.now());
      return this.get(id);
    });
    this.deps.bus.emit('device.updated', { deviceId: id });
    return device;
  }
}
