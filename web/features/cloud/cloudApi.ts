/**
 * Cloud platform calls the wizard and the system configuration share: the stored configuration,
 * a connection test, and the edge state the wizard's "cloud data loading" wait reads. `headers`
 * carries the setup code during first boot; afterwards the session token suffices.
 */
import Type from 'typebox';
import { cloudRoutes, type CloudConfig, type CloudConfigView, type CloudTestResult } from '../../../server/contract/cloud.ts';
import { defineRoutes } from '../../../server/contract/route.ts';
import { api, ApiError } from '../../lib/api-client.ts';

/** The test may take the server's 10 s to answer, plus the way there and back. */
const TEST_TIMEOUT_MS = 15_000;

/**
 * The parts of `GET /api/yt/edge/state` (the cloud link's state) the loading wait shows. The route
 * belongs to the cloud connector; until a gateway has it, the call answers 404 and the wait is skipped.
 */
const edgeStateRoutes = defineRoutes({
  state: {
    method: 'GET',
    url: '/api/yt/edge/state',
    schema: {
      response: {
        200: Type.Object({
          status: Type.String(),
          lastError: Type.Optional(Type.String()),
          backlog: Type.Object({ messages: Type.Number() }),
        }),
      },
    },
    config: { access: 'user', permission: 'system:config' },
  },
});

export interface EdgeStateSummary {
  status: string;
  lastError?: string;
  backlog: { messages: number };
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
    return await api(cloudRoutes.test, { body, headers, silent: true, timeoutMs: TEST_TIMEOUT_MS });
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return 'unavailable';
    throw err;
  }
}

/** The cloud link's state, or null when it cannot be read here (no such route, or not allowed yet). */
export async function loadEdgeState(headers?: Record<string, string>): Promise<EdgeStateSummary | null> {
  try {
    return await api(edgeStateRoutes.state, { headers, silent: true });
  } catch {
    return null;
  }
}
