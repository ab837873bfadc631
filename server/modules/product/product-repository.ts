/** SQL for `device_profile` (products); the service adds category names and device counts, which their modules give. */
import type {
  DeviceType,
  Product,
  ProductListQuery,
  ProductOption,
  ProductStatus,
  TcpAuthType,
  TcpProtocolType,
  TransportType,
} from '../../contract/product.ts';
import type { ProductScope } from '../../lib/device-scope.ts';
import type { Db } from '../../db/sqlite.ts';
import { containsPattern, orderBy, pageWindow, Where } from '../../db/list-query.ts';

interface ProductRecord {
  id: string;
  name: string;
  category_id: string | null;
  device_type: DeviceType;
  transport_type: TransportType;
  tcp_protocol_type: TcpProtocolType | null;
  tcp_auth_type: TcpAuthType | null;
  is_default: number;
  status: ProductStatus;
  image: string | null;
  description: string | null;
  protocol: string | null;
  provision_enabled: number;
  provision_key: string | null;
  provision_secret: string | null;
  poll_interval_ms: number;
  modbus_gap_max: number;
  create_time: number;
  update_time: number;
}

function toProduct(r: ProductRecord): StoredProduct {
  return {
    id: r.id,
    name: r.name,
    categoryId: r.category_id,
    deviceType: r.device_type,
    transportType: r.transport_type,
    tcpProtocolType: r.tcp_protocol_type,
    tcpAuthType: r.tcp_auth_type,
    isDefault: r.is_default === 1,
    status: r.status,
    image: r.image,
    description: r.description,
    protocol: r.protocol,
    provisionEnabled: r.provision_enabled === 1,
    provisionDeviceKey: r.provision_key,
    provisionDeviceSecret: r.provision_secret,
    pollIntervalMs: r.poll_interval_ms,
    modbusGapMax: r.modbus_gap_max,
    createdTime: r.create_time,
    updatedTime: r.update_time,
  };
}

/** A product as stored: without its category's name and its device count, which other modules give. */
export type StoredProduct = Omit<Product, 'categoryName' | 'deviceCount'>;

/** What the service writes: the stored product without its provisioning. */
export type ProductRow = Omit<StoredProduct, keyof ProductProvisioning>;

/** What a TCP device's connection and polling take from its product. */
export type TcpSettings = Pick<Product, 'tcpProtocolType' | 'tcpAuthType' | 'pollIntervalMs' | 'modbusGapMax'>;

/** A product's provisioning switch and credentials (written apart from its other fields). */
export type ProductProvisioning = Pick<Product, 'provisionEnabled' | 'provisionDeviceKey' | 'provisionDeviceSecret'>;

const SELECT = 'SELECT p.* FROM device_profile p';
const sortColumns = { name: 'p.name', createdTime: 'p.create_time', updatedTime: 'p.update_time', status: 'p.status' } as const;

export class ProductRepository {
  constructor(private readonly db: Db) {}

  /** `scope`: only these products (a customer's, server/lib/device-scope.ts). */
  page(query: ProductListQuery, scope: ProductScope = null): { items: StoredProduct[]; total: number } {
    const where = new Where();
    if (scope) {
      const ids = scope.productIds;
      where.add(ids.length ? `p.id IN (${ids.map(() => '?').join(',')})` : '0', ...ids);
    }
    if (query.name) where.add("p.name LIKE ? ESCAPE '\\'", containsPattern(query.name));
    if (query.categoryId) where.add('p.category_id = ?', query.categoryId);
    if (query.transportType) where.add('p.transport_type = ?', query.transportType);
    if (query.deviceType) where.add('p.device_type = ?', query.deviceType);
    if (query.status) where.add('p.status = ?', query.status);
    const { limit, offset } = pageWindow(query.page, query.pageSize);
    const order = orderBy(sortColumns, query.sortField, query.sortOrder, 'p.is_default DESC, p.create_time DESC, p.rowid DESC', 'p.rowid');
    const rows = this.db
      .prepare(`${SELECT} ${where.sql} ${order} LIMIT ? OFFSET ?`)
      .all(...where.params, limit, offset) as unknown as ProductRecord[];
    const { total } = this.db.prepare(`SELECT COUNT(*) AS total FROM device_profile p ${where.sql}`).get(...where.params) as { total: number };
    return { items: rows.map(toProduct), total };
  }

  options(): ProductOption[] {
    const rows = this.db
      .prepare('SELECT id, name, device_type, transport_type, is_default, status FROM device_profile ORDER BY name, id')
      .all() as unknown as Pick<ProductRecord, 'id' | 'name' | 'device_type' | 'transport_type' | 'is_default' | 'status'>[];
    return rows.map((r) => ({
      id: r.id,
      name: r.name,
      deviceType: r.device_type,
      transportType: r.transport_type,
      isDefault: r.is_default === 1,
      status: r.status,
    }));
  }

  /** How many products each of `categoryIds` has (absent: none). */
  countByCategory(categoryIds: readonly string[]): Map<string, number> {
    if (!categoryIds.length) return new Map();
    const rows = this.db
      .prepare(`SELECT category_id AS id, COUNT(*) AS n FROM device_profile WHERE category_id IN (${categoryIds.map(() => '?').join(',')}) GROUP BY category_id`)
      .all(...categoryIds) as { id: string; n: number }[];
    return new Map(rows.map((r) => [r.id, r.n]));
  }

  /** Name and transport of those of `ids` that exist. */
  briefs(ids: readonly string[]): Map<string, Pick<Product, 'name' | 'transportType'>> {
    if (!ids.length) return new Map();
    const rows = this.db
      .prepare(`SELECT id, name, transport_type FROM device_profile WHERE id IN (${ids.map(() => '?').join(',')})`)
      .all(...ids) as Pick<ProductRecord, 'id' | 'name' | 'transport_type'>[];
    return new Map(rows.map((r) => [r.id, { name: r.name, transportType: r.transport_type }]));
  }

  /** The TCP settings of every product of transport TCP. */
  tcpSettings(): Map<string, TcpSettings> {
    const rows = this.db
      .prepare("SELECT id, tcp_protocol_type, tcp_auth_type, poll_interval_ms, modbus_gap_max FROM device_profile WHERE transport_type = 'TCP'")
      .all() as Pick<ProductRecord, 'id' | 'tcp_protocol_type' | 'tcp_auth_type' | 'poll_interval_ms' | 'modbus_gap_max'>[];
    return new Map(
      rows.map((r) => [r.id, { tcpProtocolType: r.tcp_protocol_type, tcpAuthType: r.tcp_auth_type, pollIntervalMs: r.poll_interval_ms, modbusGapMax: r.modbus_gap_max }]),
    );
  }

  findById(id: string): StoredProduct | undefined {
    const r = this.db.prepare(`${SELECT} WHERE p.id = ?`).get(id) as ProductRecord | undefined;
    return r && toProduct(r);
  }

  /** The product whose provision key is `key`, if any. */
  findByProvisionKey(key: string): StoredProduct | undefined {
    const r = this.db.prepare(`${SELECT} WHERE p.provision_key = ?`).get(key) as ProductRecord | undefined;
    return r && toProduct(r);
  }

  setProvisioning(id: string, p: ProductProvisioning, time: number): void {
    this.db
      .prepare('UPDATE device_profile SET provision_enabled = ?, provision_key = ?, provision_secret = ?, update_time = ? WHERE id = ?')
      .run(p.provisionEnabled ? 1 : 0, p.provisionDeviceKey, p.provisionDeviceSecret, time, id);
  }

  idNamed(name: string): string | undefined {
    return (this.db.prepare('SELECT id FROM device_profile WHERE name = ?').get(name) as { id: string } | undefined)?.id;
  }

  count(): number {
    return (this.db.prepare('SELECT COUNT(*) AS n FROM device_profile').get() as { n: number }).n;
  }

  insert(p: ProductRow): void {
    this.db
      .prepare(
        `INSERT INTO device_profile (id, name, category_id, device_type, transport_type, tcp_protocol_type, tcp_auth_type,
           is_default, status, image, description, protocol, poll_interval_ms, modbus_gap_max, create_time, update_time)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        p.id, p.name, p.categoryId, p.deviceType, p.transportType, p.tcpProtocolType, p.tcpAuthType,
        p.isDefault ? 1 : 0, p.status, p.image, p.description, p.protocol, p.pollIntervalMs, p.modbusGapMax,
        p.createdTime, p.updatedTime,
      );
  }

  update(p: ProductRow): void {
    this.db
      .prepare(
        `UPDATE device_profile SET name = ?, category_id = ?, device_type = ?, transport_type = ?, tcp_protocol_type = ?,
           tcp_auth_type = ?, is_default = ?, image = ?, description = ?, protocol = ?, poll_interval_ms = ?,
           modbus_gap_max = ?, update_time = ?
         WHERE id = ?`,
      )
      .run(
        p.name, p.categoryId, p.deviceType, p.transportType, p.tcpProtocolType, p.tcpAuthType,
        p.isDefault ? 1 : 0, p.image, p.description, p.protocol, p.pollIntervalMs, p.modbusGapMax, p.updatedTime, p.id,
      );
  }

  /** Moves the default flag to `id` (or to nobody with null). */
  setDefault(id: string | null): void {
    this.db.prepare('UPDATE device_profile SET is_default = 0 WHERE is_default = 1').run();
    if (id !== null) this.db.prepare('UPDATE device_profile SET is_default = 1 WHERE id = ?').run(id);
  }

  hasDefault(): boolean {
    return this.db.prepare('SELECT 1 FROM device_profile WHERE is_default = 1').get() !== undefined;
  }

  oldestId(): string | undefined {
    return (this.db.prepare('SELECT id FROM device_profile ORDER BY create_time, rowid LIMIT 1').get() as { id: string } | undefined)?.id;
  }

  setStatus(id: string, status: ProductStatus, time: number): void {
    this.db.prepare('UPDATE device_profile SET status = ?, update_time = ? WHERE id = ?').run(status, time, id);
  }

  delete(id: string): void {
    this.db.prepare('DELETE FROM device_profile WHERE id = ?').run(id);
  }
}
