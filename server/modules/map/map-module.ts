/** Map settings: the tile server the console's device maps load from (server/contract/map.ts). */
import { defineModule } from '../../module.ts';
import { MapService } from './map-service.ts';
import { registerMapRoutes } from './map-routes.ts';

declare module '../../module.ts' {
  interface Services {
    mapSettings: MapService;
  }
}

export const mapModule = defineModule({
  name: 'map',
  needs: [],
  apiTags: { map: 'Map tile server of the device location maps' },
  build: ({ core }) => ({ mapSettings: new MapService(core.db) }),
  routes: registerMapRoutes,
});
