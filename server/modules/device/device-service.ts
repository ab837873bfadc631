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
import { locationViolations } from '../../contract/rules/device.ts';
import { transaction, type Db } from '../../db/sqlite.ts';
import { AppError } from '../../lib/app-error.ts';
import type { EventBus } from '../../lib/event-bus.ts';
import { assertNoViolations, notFound, refusedFor } from '../../lib/field-errors.ts';
import { newId } from '../../lib/ids.ts';
import { optionalText } from '../../lib/optional-text.ts';
import type { LicenseService } from '../license/license-service.ts';
import type { OrganizationService } from '../organization/organization-service.ts';
import type { ProductService } from '../product/product-service.ts';
import type { CredentialsService } from './credentials-service.ts';
import { deviceViolations, draftOf, type DeviceDraft, type DeviceRefs } from './device-rules.ts';
import type { DeviceRepository, DeviceRow } from './device-repository.ts';

export interface DeviceServiceDeps {
  db: Db;
  bus: EventBus;
  devices: DeviceRepository;
  credentials: CredentialsService;
  products: Pick<ProductService, 'find'>;
  organizations: Pick<OrganizationService, 'exists'>;
  license: Pick<LicenseService, 'deviceLimit'>;
}

/** A device to create with its access token (null: generate one). */
export interface NewDevice {
  draft: DeviceDraft;
  token: string | null;
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
    };
  }

  page(query: DeviceListQuery): DevicePage {
    return this.deps.devices.page(query);
  }

  get(id: string): Device {
    const device = this.deps.devices.findById(id);
    if (!device) throw notFound();
    return device;
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
      const now = Date.now();
      return items.map(({ draft, token }) => {
        if (check) assertNoViolations(deviceViolations(draft, undefined, refs));
        const row: DeviceRow = {
          ...draft,
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
        return row;
      });
    });
    for (const row of created) this.deps.bus.emit('device.created', { deviceId: row.id, deviceProfileId: row.deviceProfileId });
    return created.map((row) => row.id);
  }

  private assertWithinLicence(adding: number): void {
    const max = this.deps.license.deviceLimit();
    if (max === null || adding === 0) return;
    const used = this.deps.devices.count();
    if (used + adding > max) throw new AppError(ErrorCode.LIMIT_EXCEEDED, 'error.license.deviceLimit', { max, used, count: adding });
  }

  update(body: DeviceUpdateBody): Device {
    const device = transaction(this.deps.db, () => {
      const current = this.get(body.id);
      const draft = draftOf(body);
      const found = deviceViolations(draft, current.id, this.refs());
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
      const found = [...new Set(ids)].map((id) => devices.findById(id)).filter((d): d is Device => !!d);
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
