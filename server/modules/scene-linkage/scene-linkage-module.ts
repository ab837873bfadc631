/** Scenes of the rule engine: CRUD checked against published thing models, and their execution log. */
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Scene } from '../../contract/scene-linkage.ts';
import { sceneLinkageRoutes } from '../../contract/scene-linkage.ts';
import { defineModule } from '../../module.ts';
import m0017 from './migrations/0017-scene-linkage.sql';
import m0039 from './migrations/0039-scene-for-customers.sql';
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
  routes: (fastify, { scenes }) => {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
    const r = sceneLinkageRoutes;
    // A customer sees only the hand-run scenes within their device scope (scene-service.ts, visibleIn).
    app.route({ ...r.list, handler: async (request) => scenes.page(request.query, request.deviceScope) });
    app.route({ ...r.get, handler: async (request) => scenes.getWithin(request.params.id, request.deviceScope) });
    app.route({ ...r.create, handler: async (request) => scenes.create(request.body) });
    app.route({ ...r.update, handler: async (request) => scenes.update(request.body) });
    app.route({ ...r.remove, handler: async (request) => scenes.delete(request.body.ids) });
    app.route({ ...r.setEnabled, handler: async (request) => scenes.setEnabled(request.params.id, request.body.enabled) });
    app.route({
      ...r.log,
      handler: async (request) => {
        scenes.getWithin(request.params.id, request.deviceScope);
        return scenes.logPage(request.params.id, request.query.page, request.query.pageSize);
      },
    });
  },
});
