/**
 * Thing models: a product's properties, services and events (with Modbus descriptors), edited as a
 * draft and published with the product; the published model is what ingestion and commands check.
 */
import { defineModule } from '../../module.ts';
import m0004 from './migrations/0004-thing-model.sql';
import { ThingModelRepository } from './thing-model-repository.ts';
import { registerThingModelRoutes } from './thing-model-routes.ts';
import { ThingModelService } from './thing-model-service.ts';

declare module '../../module.ts' {
  interface Services {
    thingModels: ThingModelService;
  }
}

declare module '../../lib/event-bus.ts' {
  interface Events {
    /** A product's thing model was published: caches of the published model are stale. */
    'thingModel.published': { deviceProfileId: string };
  }
}

export const thingModelModule = defineModule({
  name: 'thing-model',
  needs: ['products'],
  migrations: [{ name: '0004-thing-model', sql: m0004 }],
  apiTags: { 'thing-model': 'Thing models: properties, services, events, Modbus descriptors; draft, publish, TSL import and export' },
  build: ({ core, services }) => ({
    thingModels: new ThingModelService({ db: core.db, bus: core.bus, items: new ThingModelRepository(core.db), products: services.products }),
  }),
  routes: registerThingModelRoutes,
});
