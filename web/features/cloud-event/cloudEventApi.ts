/** Cloud event calls: counts per status and the retry of a failed event (the list goes through useList). */
import { cloudLinkRoutes, type CloudEvent, type CloudEventPage } from '../../../server/contract/cloud-link.ts';
import { api } from '../../lib/api-client.ts';

export async function cloudEventCounts(): Promise<CloudEventPage['counts']> {
  return (await api(cloudLinkRoutes.events, { query: { pageSize: 1 }, silent: true })).counts;
}

export function retryCloudEvent(id: string): Promise<CloudEvent> {
  return api(cloudLinkRoutes.retry, { params: { id } });
}
