/**
 * The device-management services (organizations, categories, products, devices, credentials,
 * import, batch), built once per app and shared through ModuleDeps: later modules use them too
 * (the MQTT transport calls `credentials.authenticate`, the thing model looks products up).
 */
import type { Core } from '../../core.ts';
import { CategoryRepository } from '../category/category-repository.ts';
import { CategoryService } from '../category/category-service.ts';
import { OrganizationRepository } from '../organization/organization-repository.ts';
import { OrganizationService } from '../organization/organization-service.ts';
import { ProductRepository } from '../product/product-repository.ts';
import { ProductService } from '../product/product-service.ts';
import { CredentialsRepository } from './credentials-repository.ts';
import { CredentialsService } from './credentials-service.ts';
import { DeviceBatchService } from './device-batch-service.ts';
import { DeviceImportService } from './device-import-service.ts';
import { DeviceRepository } from './device-repository.ts';
import { DeviceService } from './device-service.ts';

export interface DeviceManagement {
  organizations: OrganizationService;
  categories: CategoryService;
  products: ProductService;
  devices: DeviceService;
  credentials: CredentialsService;
  imports: DeviceImportService;
  batches: DeviceBatchService;
}

export function createDeviceManagement(core: Pick<Core, 'db' | 'bus'>): DeviceManagement {
  const { db, bus } = core;
  const organizations = new OrganizationService({ db, organizations: new OrganizationRepository(db) });
  const categories = new CategoryService({ db, categories: new CategoryRepository(db) });
  const products = new ProductService({ db, bus, products: new ProductRepository(db), categories });
  const deviceRows = new DeviceRepository(db);
  const credentialRows = new CredentialsRepository(db);
  const credentials = new CredentialsService({ db, bus, credentials: credentialRows, devices: deviceRows });
  const devices = new DeviceService({ db, bus, devices: deviceRows, credentials, products, organizations });
  // The transport announces connections; the device row keeps the state and its times.
  bus.on('device.stateChanged', ({ deviceId, state, ts }) => deviceRows.setState(deviceId, state, ts));
  return {
    organizations,
    categories,
    products,
    devices,
    credentials,
    imports: new DeviceImportService({ devices, credentials }),
    batches: new DeviceBatchService({ devices, deviceRows, credentials, credentialRows, products }),
  };
}
