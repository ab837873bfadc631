/**
 * Devices as the contract shows them: the stored row with its product's name and transport and its
 * organization's name, which the product and organization services give (their tables are theirs).
 */
import type { Device, DeviceListQuery } from '../../contract/device.ts';
import type { DeviceScope } from '../../lib/device-scope.ts';
import type { OrganizationService } from '../organization/organization-service.ts';
import type { ProductService } from '../product/product-service.ts';
import type { DeviceRepository, StoredDevice } from './device-repository.ts';

export interface DeviceReaderDeps {
  rows: DeviceRepository;
  products: Pick<ProductService, 'briefs'>;
  organizations: Pick<OrganizationService, 'namesOf' | 'subtreeIds'>;
}

export class DeviceReader {
  constructor(private readonly deps: DeviceReaderDeps) {}

  /** One page and the total; the organization filter takes the organization and its descendants. */
  page(query: DeviceListQuery, scope: DeviceScope = null): { items: Device[]; total: number } {
    const subtree = query.organizationId ? this.deps.organizations.subtreeIds(query.organizationId) : [];
    const { items, total } = this.deps.rows.page(query, scope, subtree);
    return { items: this.completed(items), total };
  }

  findById(id: string): Device | undefined {
    const row = this.deps.rows.findById(id);
    return row && this.completed([row])[0];
  }

  private completed(rows: readonly StoredDevice[]): Device[] {
    const distinct = (ids: (string | null)[]): string[] => [...new Set(ids.filter((id): id is string => id !== null))];
    const products = this.deps.products.briefs(distinct(rows.map((r) => r.deviceProfileId)));
    const organizations = this.deps.organizations.namesOf(distinct(rows.map((r) => r.organizationId)));
    return rows.map((r) => {
      const product = products.get(r.deviceProfileId);
      return {
        ...r,
        // A device's product is a foreign key: it is there.
        productName: product?.name ?? '',
        transportType: product?.transportType ?? 'MQTT',
        organizationName: r.organizationId === null ? null : (organizations.get(r.organizationId) ?? null),
      };
    });
  }
}
