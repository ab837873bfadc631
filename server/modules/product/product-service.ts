/**
 * Product rules: unique names, TCP fields exactly for TCP, exactly one default product, device type
 * fixed while devices use it, no delete while devices use it, publish; the provisioning switch and
 * its generated key and secret; the SENSOR products a gateway's sub-devices name by `type`.
 */
import { productInScope, type ProductScope } from '../../lib/device-scope.ts';
import { MODBUS_GAP_DEFAULT, POLL_INTERVAL_DEFAULT_MS } from '../../contract/tcp-device.ts';
import { CategoryStatus } from '../../contract/category.ts';
import type { DeleteResult } from '../../contract/common.ts';
import type { Product, ProductBody, ProductListQuery, ProductOption, ProductPage, ProductUpdateBody } from '../../contract/product.ts';
import { PROVISION_CREDENTIAL_LENGTH } from '../../contract/provisioning.ts';
import { nameProblem } from '../../contract/rules/field.ts';
import { transaction, type Db } from '../../db/sqlite.ts';
import type { EventBus } from '../../lib/event-bus.ts';
import { assertNoViolations, notFound, refusedFor, type Violation } from '../../lib/field-errors.ts';
import { newId } from '../../lib/ids.ts';
import { optionalText } from '../../lib/optional-text.ts';
import { LOWER_ALPHANUMERIC, randomText } from '../../lib/random-text.ts';
import type { CategoryService } from '../category/category-service.ts';
import type { ProductProvisioning, ProductRepository, ProductRow, StoredProduct, TcpSettings } from './product-repository.ts';

function provisionCredential(): string {
  return randomText(LOWER_ALPHANUMERIC, PROVISION_CREDENTIAL_LENGTH);
}

export interface ProductServiceDeps {
  db: Db;
  bus: EventBus;
  products: ProductRepository;
  categories: Pick<CategoryService, 'find' | 'namesOf'>;
}

export class ProductService {
  private countDevices: (productIds: readonly string[]) => Map<string, number> = () => new Map();

  constructor(private readonly deps: ProductServiceDeps) {}

  /** The device module, built after this one, says how many devices each product has (shown, and what edits and deletes it locks). */
  countDevicesWith(count: (productIds: readonly string[]) => Map<string, number>): void {
    this.countDevices = count;
  }

  /** How many products each of `categoryIds` has, for the category module (absent: none). */
  countByCategory(categoryIds: readonly string[]): Map<string, number> {
    return this.deps.products.countByCategory(categoryIds);
  }

  /** Name and transport of those of `ids` that exist (a device list shows them). */
  briefs(ids: readonly string[]): Map<string, Pick<Product, 'name' | 'transportType'>> {
    return this.deps.products.briefs(ids);
  }

  /** The TCP settings of every product of transport TCP, by product id. */
  tcpSettings(): Map<string, TcpSettings> {
    return this.deps.products.tcpSettings();
  }

  /** `scope`: only the products a customer's devices use (server/lib/device-scope.ts). */
  page(query: ProductListQuery, scope: ProductScope = null): ProductPage {
    const { items, total } = this.deps.products.page(query, scope);
    return { items: this.completed(items), total };
  }

  options(scope: ProductScope = null): ProductOption[] {
    return this.deps.products.options().filter((p) => productInScope(scope, p.id));
  }

  get(id: string): Product {
    const product = this.find(id);
    if (!product) throw notFound();
    return product;
  }

  /** The product, or undefined: for the device rules. */
  find(id: string): Product | undefined {
    return this.completedOne(this.deps.products.findById(id));
  }

  /** The product with id `text`, else the one named `text`: how an import row names its product. */
  findByIdOrName(text: string): Product | undefined {
    const { products } = this.deps;
    const byId = this.find(text);
    if (byId) return byId;
    const id = products.idNamed(text);
    return id === undefined ? undefined : this.find(id);
  }

  /** DRAFT; the default when asked or when it is the first product. */
  create(body: ProductBody, options: { reportedName?: boolean } = {}): Product {
    return transaction(this.deps.db, () => {
      const { products } = this.deps;
      const now = Date.now();
      const row = this.rowOf(newId(), body, undefined, now, options.reportedName === true);
      const makeDefault = body.isDefault === true || !products.hasDefault();
      products.insert({ ...row, isDefault: false, status: 'DRAFT', createdTime: now });
      if (makeDefault) products.setDefault(row.id);
      if (body.provisionEnabled === true) this.switchProvisioning(this.get(row.id), true, now);
      return this.get(row.id);
    });
  }

  /**
   * The product a gateway's sub-device names by `type`: the product of that name, or a new DRAFT
   * SENSOR product over MQTT without a thing model (its data is stored and flagged until a model is
   * published), as ThingsBoard creates a device profile on first use. Inside the caller's
   * transaction. The name is a reported one (the caller checked it).
   */
  sensorProductNamed(name: string): Product {
    return transaction(this.deps.db, () => {
      const id = this.deps.products.idNamed(name);
      if (id !== undefined) return this.get(id);
      return this.create({ name, deviceType: 'SENSOR', transportType: 'MQTT' }, { reportedName: true });
    });
  }

  update(body: ProductUpdateBody): Product {
    return transaction(this.deps.db, () => {
      const { products } = this.deps;
      const current = this.get(body.id);
      const found: Violation[] = [];
      if (body.isDefault === false && current.isDefault) found.push({ field: 'isDefault', key: 'error.product.defaultRequired' });
      if (body.deviceType !== current.deviceType && current.deviceCount > 0) {
        found.push({ field: 'deviceType', key: 'error.product.deviceTypeLocked' });
      }
      // Its devices hold credentials and firmware for one transport: moving them all is not an edit.
      if (body.transportType !== current.transportType && current.deviceCount > 0) {
        found.push({ field: 'transportType', key: 'error.product.transportTypeLocked' });
      }
      assertNoViolations(found);
      const now = Date.now();
      const row = this.rowOf(current.id, body, current, now, body.name === current.name);
      products.update({ ...row, isDefault: current.isDefault });
      if (body.isDefault === true && !current.isDefault) products.setDefault(current.id);
      if (body.provisionEnabled !== undefined && body.provisionEnabled !== current.provisionEnabled) {
        this.switchProvisioning(current, body.provisionEnabled, now);
      }
      return this.get(current.id);
    });
  }

  /** A new provision key and secret: firmware holding the old ones can no longer provision. */
  regenerateProvision(id: string): Product {
    return transaction(this.deps.db, () => {
      const current = this.get(id);
      this.deps.products.setProvisioning(
        id,
        { provisionEnabled: current.provisionEnabled, provisionDeviceKey: this.newProvisionKey(), provisionDeviceSecret: provisionCredential() },
        Date.now(),
      );
      return this.get(id);
    });
  }

  /** The product whose provision key is `key` (enabled or not), for the provisioning service. */
  findByProvisionKey(key: string): Product | undefined {
    return this.completedOne(this.deps.products.findByProvisionKey(key));
  }

  setDefault(id: string): Product {
    return transaction(this.deps.db, () => {
      this.get(id);
      this.deps.products.setDefault(id);
      return this.get(id);
    });
  }

  publish(id: string): Product {
    const product = transaction(this.deps.db, () => {
      this.get(id);
      this.deps.products.setStatus(id, 'PUBLISHED', Date.now());
      return this.get(id);
    });
    this.deps.bus.emit('product.published', { productId: id });
    return product;
  }

  /**
   * All or nothing: refused while devices use a product. Unknown ids are skipped. When the default
   * goes, the oldest remaining product becomes the default.
   */
  delete(ids: readonly string[]): DeleteResult {
    const targets = transaction(this.deps.db, () => {
      const { products } = this.deps;
      const found = [...new Set(ids)].map((id) => this.find(id)).filter((p): p is Product => !!p);
      const used = found.filter((p) => p.deviceCount > 0);
      if (used.length) throw refusedFor('error.product.inUse', used.map((p) => p.name));
      for (const p of found) products.delete(p.id);
      if (!products.hasDefault()) {
        const oldest = products.oldestId();
        if (oldest) products.setDefault(oldest);
      }
      return found;
    });
    for (const p of targets) this.deps.bus.emit('product.deleted', { productId: p.id });
    return { deleted: targets.length };
  }

  /** Stored products with their category's name and their device count. */
  private completed(rows: readonly StoredProduct[]): Product[] {
    const categoryIds = [...new Set(rows.flatMap((r) => (r.categoryId === null ? [] : [r.categoryId])))];
    const names = this.deps.categories.namesOf(categoryIds);
    const counts = this.countDevices(rows.map((r) => r.id));
    return rows.map((r) => ({ ...r, categoryName: r.categoryId === null ? null : (names.get(r.categoryId) ?? null), deviceCount: counts.get(r.id) ?? 0 }));
  }

  private completedOne(row: StoredProduct | undefined): Product | undefined {
    return row && this.completed([row])[0];
  }

  /** On: the key and secret it had, or new ones the first time. Off: kept for when it is back on. */
  private switchProvisioning(current: Product, enabled: boolean, now: number): void {
    const next: ProductProvisioning = {
      provisionEnabled: enabled,
      provisionDeviceKey: current.provisionDeviceKey ?? (enabled ? this.newProvisionKey() : null),
      provisionDeviceSecret: current.provisionDeviceSecret ?? (enabled ? provisionCredential() : null),
    };
    this.deps.products.setProvisioning(current.id, next, now);
  }

  /** A provision key no product holds (the key finds the product). */
  private newProvisionKey(): string {
    for (;;) {
      const key = provisionCredential();
      if (!this.deps.products.findByProvisionKey(key)) return key;
    }
  }

  /**
   * The stored fields of `body`, after its rules; throws the violations it finds. `reportedName`:
   * the name is a gateway's `type` or the product's own unchanged, exempt from the typed-name rule.
   */
  private rowOf(id: string, body: ProductBody, current: Product | undefined, now: number, reportedName: boolean): ProductRow {
    const found: Violation[] = [];
    const typed = reportedName ? null : nameProblem(body.name);
    if (typed) found.push({ field: 'name', key: typed.key });
    const holder = this.deps.products.idNamed(body.name);
    if (holder !== undefined && holder !== id) found.push({ field: 'name', key: 'error.product.nameTaken' });

    const categoryId = body.categoryId ?? null;
    if (categoryId !== null) {
      const category = this.deps.categories.find(categoryId);
      if (!category) found.push({ field: 'categoryId', key: 'error.product.categoryNotFound' });
      // A product keeps a category disabled after it was chosen; only a new choice must be enabled.
      else if (category.status === CategoryStatus.DISABLED && categoryId !== current?.categoryId) {
        found.push({ field: 'categoryId', key: 'error.product.categoryDisabled' });
      }
    }

    const tcpProtocolType = body.tcpProtocolType ?? null;
    const tcpAuthType = body.tcpAuthType ?? null;
    if (body.transportType === 'TCP') {
      if (tcpProtocolType === null) found.push({ field: 'tcpProtocolType', key: 'error.product.tcpProtocolTypeRequired' });
      if (tcpAuthType === null) found.push({ field: 'tcpAuthType', key: 'error.product.tcpAuthTypeRequired' });
    } else {
      if (tcpProtocolType !== null) found.push({ field: 'tcpProtocolType', key: 'error.product.tcpFieldsOnlyForTcp' });
      if (tcpAuthType !== null) found.push({ field: 'tcpAuthType', key: 'error.product.tcpFieldsOnlyForTcp' });
    }
    assertNoViolations(found);

    return {
      id,
      name: body.name,
      categoryId,
      deviceType: body.deviceType,
      transportType: body.transportType,
      tcpProtocolType,
      tcpAuthType,
      isDefault: current?.isDefault ?? false,
      status: current?.status ?? 'DRAFT',
      image: body.image ?? null,
      description: optionalText(body.description),
      protocol: optionalText(body.protocol),
      pollIntervalMs: body.pollIntervalMs ?? POLL_INTERVAL_DEFAULT_MS,
      modbusGapMax: body.modbusGapMax ?? MODBUS_GAP_DEFAULT,
      createdTime: current?.createdTime ?? now,
      updatedTime: now,
    };
  }
}
