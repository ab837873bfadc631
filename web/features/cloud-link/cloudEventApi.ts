/** Cloud event calls: the retry of a failed event (the list and its counts go through useList). */
import { cloudLinkRoutes, type CloudEvent } from '../../../server/contract/cloud-link.ts';
import { api } from '../../lib/api-client.ts';

export function retryCloudEvent(id: string): Promise<CloudEvent> {
  return api(cloudLinkRoutes.retry, { params: { id } });
}
