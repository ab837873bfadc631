/**
 * Devices and their credentials, CSV import and batch generation, device provisioning (ThingsBoard's
 * provision request) and the sub-devices gateways create. The device row keeps the connection state
 * the transport announces.
 */
import type { CredentialsType } from '../../contract/credentials.ts';
import { defineModule } from '../../module.ts';
import { CredentialsRepository } from './credentials-repository.ts';
import { CredentialsService } from './credentials-service.ts';
import { DeviceBatchService } from './device-batch-service.ts';
import { DeviceImportService } from './device-import-service.ts';
import { DeviceReader } from './device-reader.ts';
import { DeviceRepository } from './device-repository.ts';
import { registerDeviceRoutes } from './device-routes.ts';
import { DeviceService } from './device-service.ts';
import { DeviceStateWriter } from './device-state-writer.ts';
import { registerProvisioningRoutes } from './provisioning-routes.ts';
import { ProvisioningService } from './provisioning-service.ts';
import m0003 from './migrations/0003-device-management.sql';
import m0033 from './migrations/0033-device-tcp-access.sql';
import m0042 from './migrations/0042-device-registration-apart.sql';

declare module '../../module.ts' {
  interface Services {
    devices: DeviceService;
    credentials: CredentialsService;
    deviceImports: DeviceImportService;
    deviceBatches: DeviceBatchService;
    /** ThingsBoard's device provisioning; the MQTT broker's `provision` hook calls `provision` too. */
    provisioning: ProvisioningService;
  }
}

declare module '../../lib/event-bus.ts' {
  interface Events {
    /** A device was created (single create, import or batch generation). */
    'device.created': { deviceId: string; deviceProfileId: string };
    /** A device's fields changed (edit, favourite, public flag, location). */
    'device.updated': { deviceId: string };
    /** A device and its credentials are gone: the transport closes its sessions. */
    'device.deleted': { deviceId: string };
    /** The credentials were replaced: the transport closes sessions opened with the old ones. */
    'device.credentialsChanged': { deviceId: string; credentialsType: CredentialsType };
  }
}

export const deviceModule = defineModule({
  name: 'device',
  needs: ['organizations', 'products', 'license'],
  migrations: [
    { name: '0003-device-management', sql: m0003 },
    { name: '0033-device-tcp-access', sql: m0033 },
    { name: '0042-device-registration-apart', sql: m0042 },
  ],
  apiTags: {
    device: 'Devices: list filters, edit, favourite and public flags, location',
    'device-credentials': 'Device credentials: access token, X.509 RSA public key, MQTT basic',
    'device-import': 'CSV import wizard and batch generation for factory provisioning',
  },
  build: ({ core, log, services: { organizations, products, license }, onClose }) => {
    const { db, bus } = core;
    const deviceRows = new DeviceRepository(db);
    const reader = new DeviceReader({ rows: deviceRows, products, organizations });
    const credentialRows = new CredentialsRepository(db);
    const credentials = new CredentialsService({ db, bus, credentials: credentialRows, devices: reader });
    // Every path that creates devices goes through DeviceService.createMany, which holds them to
    // the licence's limit; the licence view shows the count beside it.
    const devices = new DeviceService({ db, bus, devices: deviceRows, reader, credentials, products, organizations, license });
    license.countDevicesWith(() => deviceRows.count());
    // Left by migration 0042 so that DTUs kept working: bytes read off the TCP port would open MQTT and HTTP too.
    const sharing = deviceRows.registrationsSharingToken();
    if (sharing) log.warn({ devices: sharing }, 'TCP devices register with their access token; give them a new access token (docs/SECURITY.md)');
    // Modules built before this one show and guard on the devices that use their rows.
    products.countDevicesWith((ids) => deviceRows.countByProduct(ids));
    organizations.holdsDevicesWith((id) => deviceRows.holdsOrganization(id));
    // The transport announces connections; the device row keeps the state and its times, written
    // many per transaction (device-state-writer.ts).
    const states = new DeviceStateWriter(db, (err, count) => log.warn({ err, devices: count }, 'device states not stored'));
    bus.on('device.stateChanged', ({ deviceId, state, ts }) => states.set(deviceId, state, ts));
    onClose(() => states.close());
    // A remembered MQTT password (credentials-service.ts) goes with the credentials it was checked against.
    bus.on('device.credentialsChanged', ({ deviceId }) => credentials.forgetVerified(deviceId));
    bus.on('device.deleted', ({ deviceId }) => credentials.forgetVerified(deviceId));
    return {
      devices,
      credentials,
      deviceImports: new DeviceImportService({ devices, credentials, products }),
      deviceBatches: new DeviceBatchService({ devices, deviceRows, credentials, credentialRows, products }),
      provisioning: new ProvisioningService({ devices, credentials, products, log }),
    };
  },
  routes: async (app, scope) => {
    await registerDeviceRoutes(app, scope);
    // Apart: the provision route reads JSON under any content type, as devices send it.
    await app.register(async (devices) => registerProvisioningRoutes(devices, scope));
  },
});
