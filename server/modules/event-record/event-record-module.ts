/** Device event records: the events devices reported, matched to their thing model. */
import { defineModule } from '../../module.ts';
import { registerEventRecordRoutes } from './event-record-routes.ts';

export const eventRecordModule = defineModule({
  name: 'event-record',
  needs: ['telemetry'],
  apiTags: { event: 'Events devices reported, matched to their thing model' },
  build: () => ({}),
  routes: registerEventRecordRoutes,
});
