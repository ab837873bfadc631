/** Visualization configurations (dashboards of live widgets) and their read-only share links. */
import { defineModule } from '../../module.ts';
import m0090 from './migrations/0090-visualization.sql';
import { registerVisualizationRoutes } from './visualization-routes.ts';
import { productDeviceIds } from './product-devices.ts';
import { ShareService } from './share-service.ts';
import { visualizationLive } from './share-live.ts';
import { VisualizationService } from './visualization-service.ts';

declare module '../../module.ts' {
  interface Services {
    visualizations: VisualizationService;
    visualizationShares: ShareService;
  }
}

declare module '../../lib/event-bus.ts' {
  interface Events {
    /** A configuration was saved or deleted, or its share link made, replaced or revoked: live share pages ask again. */
    'visualization.changed': { visualizationId: string };
  }
}

export const visualizationModule = defineModule({
  name: 'visualization',
  needs: ['devices', 'products', 'organizations', 'telemetry', 'alarms'],
  migrations: [{ name: '0090-visualization', sql: m0090 }],
  apiTags: { visualization: 'Visualization configurations (grid layouts of live widgets), templates and read-only share links' },
  build: ({ core, services: { devices, products, organizations, telemetry, alarms } }) => {
    const visualizations = new VisualizationService({
      db: core.db,
      devicesWithin: (scope) => devices.within(scope),
      productExists: (id) => products.find(id) !== undefined,
      organizationExists: (id) => organizations.exists(id),
      announce: (visualizationId) => core.bus.emit('visualization.changed', { visualizationId }),
    });
    const visualizationShares = new ShareService({
      visualizations,
      timeseries: (deviceId, query) => telemetry.timeseries(deviceId, query),
      activeAlarms: (deviceIds, limit) => alarms.search({ deviceIds, statuses: ['ACTIVE_UNACK', 'ACTIVE_ACK'] }, 1, limit).items,
      productDevices: (productId, organizationId, limit) => productDeviceIds(devices, { productId, organizationId, limit }),
    });
    return { visualizations, visualizationShares };
  },
  live: visualizationLive,
  routes: registerVisualizationRoutes,
});
