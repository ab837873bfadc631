/**
 * Calls to a running instance's Node-RED admin API, as the gateway itself (with the proxy's
 * per-process token): a full deployment for rollbacks and a health probe.
 */
import { nodeRedEditorPath } from '../../contract/node-red.ts';
import { NODE_RED_TOKEN_HEADER } from '../../cli/node-red-runtime.ts';

export interface Upstream {
  port: number;
  token: string;
}

/** How long one health probe may take: a runtime whose event loop is stuck never answers. */
const PROBE_TIMEOUT_MS = 3_000;

function adminUrl(upstream: Upstream, instanceId: string, path: string): string {
  return `http://127.0.0.1:${upstream.port}${nodeRedEditorPath(instanceId)}${path}`;
}

/**
 * Deploys flows (and credentials still encrypted with the instance's secret) in full. Answers
 * Node-RED's response, or null when it did not answer within `timeoutMs` (a flow that blocks the
 * runtime as it starts keeps the deployment from ever answering).
 */
export async function deployFull(upstream: Upstream, instanceId: string, body: unknown, timeoutMs: number): Promise<Response | null> {
  try {
    return await fetch(adminUrl(upstream, instanceId, 'flows'), {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        [NODE_RED_TOKEN_HEADER]: upstream.token,
        'Node-RED-API-Version': 'v2',
        'Node-RED-Deployment-Type': 'full',
      },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(Math.max(1, timeoutMs)),
    });
  } catch {
    return null;
  }
}

/** Whether the runtime's admin API answers its settings now. */
export async function answersHealthy(upstream: Upstream, instanceId: string): Promise<boolean> {
  try {
    const res = await fetch(adminUrl(upstream, instanceId, 'settings'), {
      headers: { [NODE_RED_TOKEN_HEADER]: upstream.token },
      signal: AbortSignal.timeout(PROBE_TIMEOUT_MS),
    });
    await res.body?.cancel();
    return res.ok;
  } catch {
    return false;
  }
}

/** The flows deployed now (Node-RED's v1 answer: the array itself); null when the runtime does not answer. */
export async function deployedFlows(upstream: Upstream, instanceId: string): Promise<unknown[] | null> {
  try {
    const res = await fetch(adminUrl(upstream, instanceId, 'flows'), {
      headers: { [NODE_RED_TOKEN_HEADER]: upstream.token, 'Node-RED-API-Version': 'v1' },
      signal: AbortSignal.timeout(30_000),
    });
    const body = res.ok ? ((await res.json()) as unknown) : null;
    return Array.isArray(body) ? body : null;
  } catch {
    return null;
  }
}
