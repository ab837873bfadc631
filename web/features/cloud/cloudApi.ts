/**
 * Cloud platform calls the wizard and the system configuration share: the stored configuration,
 * a connection test, and the edge state the wizard's "cloud data loading" wait reads. `headers`
 * carries the setup code during first boot; afterwards the session token suffices.
 */
import { cloudRoutes, type CloudConfig, type CloudConfigView } from '../../../server/contract/cloud.ts';
import { cloudLinkRoutes, type CloudTestResult } from '../../../server/contract/cloud-link.ts';
import { api, ApiError } from '../../lib/api-client.ts';

/** The test may take the server's 10 s to answer, plus the way there and back. */
const TEST_TIMEOUT_MS = 15_000;

/** The parts of the cloud link's state (`GET /api/yt/edge/state`) the loading wait shows. */
export interface EdgeStateSummary {
  status: string;
  lastError?: string;
  backlog: { messages: number };
  /** Device announcements and changes the cloud has not acknowledged. */
  pendingCloudEvents: number;
}

export function loadCloudConfig(headers?: Record<string, string>): Promise<CloudConfigView> {
  return api(cloudRoutes.get, { headers, silent: true });
}

export function saveCloudConfig(body: CloudConfig, headers?: Record<string, string>): Promise<CloudConfigView> {
  return api(cloudRoutes.save, { body, headers, silent: true });
}

/** The test's answer, or 'unavailable' when this gateway has no connection test (404). */
export async function testCloudConfig(body: CloudConfig, headers?: Record<string, string>): Promise<CloudTestResult | 'unavailable'> {
  try {
    return await api(cloudLinkRoutes.test, { body, headers, silent: true, timeoutMs: TEST_TIMEOUT_MS });
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return 'unavailable';
    throw err;
  }
}

/** The cloud link's state, or null when it cannot be read here (no such route, or not allowed yet). */
export async function loadEdgeState(headers?: Record<string, string>): Promise<EdgeStateSummary | null> {
  try {
    return await api(cloudLinkRoutes.state, { headers, silent: true });
  } catch {
    return null;
  }
}
