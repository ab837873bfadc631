/**
 * SQL for `device`. Lists join the gateway's name; the product's and organization's names are
 * their modules' (device-reader.ts adds them). Hot statements (used per row by import and batch
 * generation) are prepared once.
 */
import type { StatementSync } from 'node:sqlite';
import type { Device, DeviceListQuery, DeviceState } from '../../contract/device.ts';
import type { DeviceType, Product } from '../../contract/product.ts';
import type { Db } from '../../db/sqlite.ts';
import type { RegistrationFormat } from '../../contract/tcp-device.ts';
import type { TcpDevice } from './tcp-device.ts';
import { registrationHex } from '../../contract/rules/tcp-registration.ts';
import type { DeviceScope } from '../../lib/device-scope.ts';
import { containsPattern, orderBy, pageWindow, Where } from '../../db/list-query.ts';

interface DeviceRecord {
  id: string;
  name: string;
  alias: string | null;
  device_type: DeviceType;
  device_profile_id: string;
  organization_id: string | null;
  gateway_id: string | null;
  gateway_name: string | null;
  address_code: string | null;
  label: string | null;
  longitude: number | null;
  latitude: number | null;
  address: string | null;
  is_public: number;
  is_collect: number;
  description: string | null;
  registration_format: RegistrationFormat | null;
  registration_value: string | null;
  modbus_host: string | null;
  modbus_port: number | null;
  device_state: DeviceState;
  last_online_time: number | null;
  last_offline_time: number | null;
  create_time: number;
  update_time: number;
}

function toDevice(r: DeviceRecord): StoredDevice {
  return {
    id: r.id,
    name: r.name,
    alias: r.alias,
    deviceType: r.device_type,
    deviceProfileId: r.device_profile_id,
    organizationId: r.organization_id,
    gatewayId: r.gateway_id,
    gatewayName: r.gateway_name,
    addressCode: r.address_code,
    label: r.label,
    longitude: r.longitude,
    latitude: r.latitude,
    address: r.address,
    isPublic: r.is_public === 1,
    isCollect: r.is_collect === 1,
    description: r.description,
    registration: r.registration_format && r.registration_value !== null ? { format: r.registration_format, value: r.registration_value } : null,
    modbusTcp: r.modbus_host !== null && r.modbus_port !== null ? { host: r.modbus_host, port: r.modbus_port } : null,
    deviceState: r.device_state,
    lastOnlineTime: r.last_online_time,
    lastOfflineTime: r.last_offline_time,
    createdTime: r.create_time,
    updatedTime: r.update_time,
  };
}

interface TcpDeviceRecord {
  id: string;
  name: string;
  device_type: DeviceType;
  device_profile_id: string;
  gateway_id: string | null;
  address_code: string | null;
  registration_hex: string | null;
  modbus_host: string | null;
  modbus_port: number | null;
}

/** A device as stored, with its gateway's name: its product's name and transport and its organization's name are other modules'. */
export type StoredDevice = Omit<Device, 'productName' | 'transportType' | 'organizationName'>;

/** What the service writes: the device without the joined names. */
export type DeviceRow = Omit<StoredDevice, 'gatewayName'>;

/** What a TCP device takes from its product (ProductService.tcpSettings). */
export type TcpSettings = Pick<Product, 'tcpProtocolType' | 'tcpAuthType' | 'pollIntervalMs' | 'modbusGapMax'>;

function tcpOf(p: TcpSettings): Pick<TcpDevice, 'tcpProtocolType' | 'tcpAuthType' | 'pollIntervalMs' | 'modbusGapMax'> {
  return { tcpProtocolType: p.tcpProtocolType ?? 'CUSTOM', tcpAuthType: p.tcpAuthType ?? 'REGISTER_SEND', pollIntervalMs: p.pollIntervalMs, modbusGapMax: p.modbusGapMax };
}

/** A device row's columns with its gateway's name joined in. */
const deviceColumns = 'd.*, g.name AS gateway_name';

const deviceJoins = `FROM device d
  LEFT JOIN device g ON g.id = d.gateway_id`;

/** SELECT of devices with their joined names, filtered by `where`; `extraColumns` come first. */
function selectDevices(where: string, extraColumns: readonly string[] = []): string {
  return `SELECT ${[...extraColumns, deviceColumns].join(', ')}
  ${deviceJoins}
  WHERE ${where}`;
}

const sortColumns = {
  name: 'd.name',
  alias: 'd.alias',
  deviceType: 'd.device_type',
  deviceState: 'd.device_state',
  createdTime: 'd.create_time',
  lastOnlineTime: 'd.last_online_time',
} as const;

/** registration_format, registration_value, registration_hex, modbus_host, modbus_port of a row. */
function tcpColumns(d: Pick<DeviceRow, 'registration' | 'modbusTcp'>): (string | number | null)[] {
  const r = d.registration;
  return [r?.format ?? null, r?.value ?? null, r ? registrationHex(r) : null, d.modbusTcp?.host ?? null, d.modbusTcp?.port ?? null];
}

export class DeviceRepository {
  private readonly insertStatement: StatementSync;
  private readonly nameOwnerStatement: StatementSync;
  private readonly typeStatement: StatementSync;
  private readonly countStatement: StatementSync;

  constructor(private readonly db: Db) {
    this.insertStatement = db.prepare(
      `INSERT INTO device (id, name, alias, device_type, device_profile_id, organization_id, gateway_id, address_code, label,
         longitude, latitude, address, is_public, is_collect, description, device_state, create_time, update_time,
         registration_format, registration_value, registration_hex, modbus_host, modbus_port)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.nameOwnerStatement = db.prepare('SELECT id FROM device WHERE name = ?');
    this.typeStatement = db.prepare('SELECT device_type FROM device WHERE id = ?');
    this.countStatement = db.prepare('SELECT COUNT(*) AS n FROM device');
  }

  /**
   * One page and the total under the same filters. `subtree`: the ids the organization filter takes
   * (the organization and its descendants). Default order: newest first (index device_create_time
   * and the (filter, create_time) indexes).
   */
  page(query: DeviceListQuery, scope: DeviceScope = null, subtree: readonly string[] = []): { items: StoredDevice[]; total: number } {
    const where = new Where();
    if (scope) {
      const ids = scope.organizationIds;
      where.add(ids.length ? `d.organization_id IN (${ids.map(() => '?').join(',')})` : '0', ...ids);
    }
    if (query.name) {
      const pattern = containsPattern(query.name);
      where.add("(d.name LIKE ? ESCAPE '\\' OR d.alias LIKE ? ESCAPE '\\')", pattern, pattern);
    }
    if (query.deviceState === 'ACTIVE') where.add("d.device_state IN ('ONLINE', 'OFFLINE')");
    else if (query.deviceState) where.add('d.device_state = ?', query.deviceState);
    if (query.deviceType) where.add('d.device_type = ?', query.deviceType);
    if (query.deviceProfileId) where.add('d.device_profile_id = ?', query.deviceProfileId);
    if (query.gatewayId) where.add('d.gateway_id = ?', query.gatewayId);
    if (query.isCollect !== undefined) where.add('d.is_collect = ?', query.isCollect ? 1 : 0);
    if (query.organizationId) {
      // The unary + keeps SQLite off the organization index: through it, a large subtree (the
      // root: every device) is read whole and sorted; walking the time index stops at the page.
      where.add(`+d.organization_id IN (${subtree.map(() => '?').join(',')})`, ...subtree);
    }
    const { limit, offset } = pageWindow(query.page, query.pageSize);
    const order = orderBy(sortColumns, query.sortField, query.sortOrder, 'd.create_time DESC, d.rowid DESC', 'd.rowid');
    // The page's rows are chosen without the joins, which SQLite would otherwise evaluate for every
    // row skipped on the way to a deep page; only the page itself is joined.
    const ids = (
      this.db.prepare(`SELECT d.rowid AS r FROM device d ${where.sql} ${order} LIMIT ? OFFSET ?`).all(...where.params, limit, offset) as {
        r: number;
      }[]
    ).map((x) => x.r);
    const byRowid = new Map(
      (ids.length
        ? (this.db
            .prepare(selectDevices(`d.rowid IN (${ids.map(() => '?').join(',')})`, ['d.rowid AS _rowid']))
            .all(...ids) as unknown as (DeviceRecord & { _rowid: number })[])
        : []
      ).map((row) => [row._rowid, row]),
    );
    const rows = ids.map((id) => byRowid.get(id)).filter((row): row is DeviceRecord & { _rowid: number } => row !== undefined);
    const { total } = this.db.prepare(`SELECT COUNT(*) AS total FROM device d ${where.sql}`).get(...where.params) as { total: number };
    return { items: rows.map(toDevice), total };
  }

  /** The products at least one device of these organizations uses. */
  productIdsIn(organizationIds: readonly string[]): string[] {
    if (!organizationIds.length) return [];
    const rows = this.db
      .prepare(`SELECT DISTINCT device_profile_id AS id FROM device WHERE organization_id IN (${organizationIds.map(() => '?').join(',')})`)
      .all(...organizationIds) as { id: string }[];
    return rows.map((r) => r.id);
  }

  findById(id: string): StoredDevice | undefined {
    const r = this.db.prepare(selectDevices('d.id = ?')).get(id) as DeviceRecord | undefined;
    return r && toDevice(r);
  }

  nameOwner(name: string): string | undefined {
    return (this.nameOwnerStatement.get(name) as { id: string } | undefined)?.id;
  }

  typeOf(id: string): DeviceType | undefined {
    return (this.typeStatement.get(id) as { device_type: DeviceType } | undefined)?.device_type;
  }

  /** Names of the sensors attached to `gatewayId`, with their ids. */
  sensorsOf(gatewayId: string): { id: string; name: string }[] {
    return this.db.prepare('SELECT id, name FROM device WHERE gateway_id = ?').all(gatewayId) as { id: string; name: string }[];
  }

  /** Devices of the TCP products in `products` with what the TCP access server and the Modbus master need. */
  tcpDevices(products: ReadonlyMap<string, TcpSettings>): TcpDevice[] {
    if (!products.size) return [];
    const rows = this.db
      .prepare(
        `SELECT d.id, d.name, d.device_type, d.device_profile_id, d.gateway_id, d.address_code, d.registration_hex,
           d.modbus_host, d.modbus_port
         FROM device d
         WHERE d.device_profile_id IN (${[...products.keys()].map(() => '?').join(',')})`,
      )
      .all(...products.keys()) as unknown as TcpDeviceRecord[];
    return rows.map((r) => ({
      id: r.id,
      name: r.name,
      deviceType: r.device_type,
      deviceProfileId: r.device_profile_id,
      gatewayId: r.gateway_id,
      addressCode: r.address_code,
      registrationHex: r.registration_hex,
      modbusTcp: r.modbus_host !== null && r.modbus_port !== null ? { host: r.modbus_host, port: r.modbus_port } : null,
      ...tcpOf(products.get(r.device_profile_id)!),
    }));
  }

  /** Whether devices belong to the organization. */
  holdsOrganization(organizationId: string): boolean {
    return this.db.prepare('SELECT 1 FROM device WHERE organization_id = ? LIMIT 1').get(organizationId) !== undefined;
  }

  /** How many devices each of `productIds` has (absent: none). */
  countByProduct(productIds: readonly string[]): Map<string, number> {
    if (!productIds.length) return new Map();
    const rows = this.db
      .prepare(`SELECT device_profile_id AS id, COUNT(*) AS n FROM device WHERE device_profile_id IN (${productIds.map(() => '?').join(',')}) GROUP BY device_profile_id`)
      .all(...productIds) as { id: string; n: number }[];
    return new Map(rows.map((r) => [r.id, r.n]));
  }

  /**
   * How many devices register with the bytes of their own access token: those a TCP product had
   * before registrations were kept apart from tokens (migration 0042), until an administrator gives
   * them a new token or a new registration.
   */
  registrationsSharingToken(): number {
    const row = this.db
      .prepare(
        `SELECT COUNT(*) AS n FROM device d JOIN device_credentials c ON c.device_id = d.id
         WHERE c.credentials_type = 'ACCESS_TOKEN' AND d.registration_hex = hex(c.credentials_id)`,
      )
      .get() as { n: number };
    return row.n;
  }

  /** The device whose own registration string is these bytes (upper-case hex). */
  registrationOwner(hex: string): string | undefined {
    return (this.db.prepare('SELECT id FROM device WHERE registration_hex = ?').get(hex) as { id: string } | undefined)?.id;
  }

  insert(d: DeviceRow): void {
    this.insertStatement.run(
      d.id, d.name, d.alias, d.deviceType, d.deviceProfileId, d.organizationId, d.gatewayId, d.addressCode, d.label,
      d.longitude, d.latitude, d.address, d.isPublic ? 1 : 0, d.isCollect ? 1 : 0, d.description, d.deviceState,
      d.createdTime, d.updatedTime, ...tcpColumns(d),
    );
  }

  /** The editable fields; state, favourite flag and times of connection are not touched. */
  update(d: DeviceRow): void {
    this.db
      .prepare(
        `UPDATE device SET name = ?, alias = ?, device_type = ?, device_profile_id = ?, organization_id = ?, gateway_id = ?,
           address_code = ?, label = ?, longitude = ?, latitude = ?, address = ?, is_public = ?, description = ?, update_time = ?,
           registration_format = ?, registration_value = ?, registration_hex = ?, modbus_host = ?, modbus_port = ?
         WHERE id = ?`,
      )
      .run(
        d.name, d.alias, d.deviceType, d.deviceProfileId, d.organizationId, d.gatewayId, d.addressCode, d.label,
        d.longitude, d.latitude, d.address, d.isPublic ? 1 : 0, d.description, d.updatedTime, ...tcpColumns(d), d.id,
      );
  }

  setCollect(id: string, isCollect: boolean, time: number): void {
    this.db.prepare('UPDATE device SET is_collect = ?, update_time = ? WHERE id = ?').run(isCollect ? 1 : 0, time, id);
  }

  setPublic(id: string, isPublic: boolean, time: number): void {
    this.db.prepare('UPDATE device SET is_public = ?, update_time = ? WHERE id = ?').run(isPublic ? 1 : 0, time, id);
  }

  setLocation(id: string, location: { longitude: number | null; latitude: number | null; address: string | null }, time: number): void {
    this.db
      .prepare('UPDATE device SET longitude = ?, latitude = ?, address = ?, update_time = ? WHERE id = ?')
      .run(location.longitude, location.latitude, location.address, time, id);
  }

  /** Records a connection change the transport announced (`device.stateChanged`). */
  /** At start-up nobody is connected yet: devices left ONLINE by a stop or a crash are not. */
  setAllOffline(time: number): number {
    return Number(this.db.prepare("UPDATE device SET device_state = 'OFFLINE', last_offline_time = ? WHERE device_state = 'ONLINE'").run(time).changes);
  }

  /** How many devices exist, of every type: what the licence's device limit counts. */
  count(): number {
    return (this.countStatement.get() as { n: number }).n;
  }

  /** Deletes the device; its credentials go with it (ON DELETE CASCADE). */
  delete(id: string): void {
    this.db.prepare('DELETE FROM device WHERE id = ?').run(id);
  }
}
