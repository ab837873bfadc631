/** Edge state calls: the state once (also live through useEdgeState) and the secret for administrators. */
import { cloudLinkRoutes, type EdgeState } from '../../../server/contract/cloud-link.ts';
import { api } from '../../lib/api-client.ts';

export function fetchEdgeState(): Promise<EdgeState> {
  return api(cloudLinkRoutes.state);
}

export async function revealSecret(): Promise<string> {
  return (await api(cloudLinkRoutes.secret)).edgeSecret;
}
