/** Scenes of the rule engine: CRUD checked against published thing models, and their execution log. */
import type { Scene } from '../../contract/scene-linkage.ts';
import { defineModule } from '../../module.ts';
import m0017 from './migrations/0017-scene-linkage.sql';
import m0039 from './migrations/0039-scene-for-customers.sql';
import { registerSceneLinkageRoutes } from './scene-linkage-routes.ts';
import { SceneService } from './scene-service.ts';

declare module '../../module.ts' {
  interface Services {
    scenes: SceneService;
  }
}

declare module '../../lib/event-bus.ts' {
  interface Events {
    /** A scene was created, changed, switched on or off (`scene`), or deleted (`scene` null). */
    'scene.changed': { id: string; scene: Scene | null };
  }
}

export const sceneLinkageModule = defineModule({
  name: 'scene-linkage',
  needs: ['products', 'thingModels', 'devices'],
  migrations: [
    { name: '0017-scene-linkage', sql: m0017 },
    { name: '0039-scene-for-customers', sql: m0039 },
  ],
  apiTags: { 'scene-linkage': 'Scene linkage (rule engine): triggers, conditions, actions, clear rules, schedule; manual execution and the execution log' },
  build: ({ core, services }) => ({
    scenes: new SceneService({ db: core.db, bus: core.bus, products: services.products, thingModels: services.thingModels, devices: services.devices }),
  }),
  routes: registerSceneLinkageRoutes,
});
