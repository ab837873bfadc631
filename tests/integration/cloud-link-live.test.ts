/**
 * The cloud link's live command type (EDGE_STATE) through a real /api/ws socket: the link's state
 * as the cloud is configured over HTTP, and nothing more once the subscription ended. The cloud's
 * address is a closed port, so the link changes state without any broker.
 */
import { describe, expect, it } from 'vitest';
import { cloudRoutes } from '../../server/contract/cloud.ts';
import type { EdgeStateUpdate } from '../../server/contract/realtime.ts';
import { expectSilenced, type LiveCmd, LiveClient, makeLiveApp, type LiveTestApp } from '../helpers/live.ts';

/** Points the cloud link at a port nothing listens on, under the cloud key `platformKey`. */
function configureUnreachableCloud(t: LiveTestApp, platformKey: string): Promise<unknown> {
  return t.api.ok(cloudRoutes.save, { body: { platformAddress: '127.0.0.1', platformPort: 1, platformKey, platformSecret: 's' } });
}

function edgeState(cmdId: number): LiveCmd {
  return { type: 'EDGE_STATE', cmdId };
}

/** True for an EDGE_STATE answer under the cloud key `platformKey`. */
function keyed(platformKey: string): (m: Record<string, unknown>) => boolean {
  return (m) => (m as unknown as EdgeStateUpdate).data?.edgeKey === platformKey;
}

describe('EDGE_STATE over /api/ws', () => {
  it('answers the cloud link state, pushes its change once a cloud is configured over HTTP, and stops after EDGE_STATE_UNSUBSCRIBE', async () => {
    const t = await makeLiveApp({ listen: true });
    const ws = await LiveClient.open(t, { token: t.token, lang: 'en-US' });
    ws.send({ cmds: [edgeState(1)] });
    const first = await ws.answer<EdgeStateUpdate>(1);
    expect(first).toMatchObject({ cmdId: 1, subscriptionId: 1, errorCode: 0, errorMsg: null, cmdUpdateType: 'EDGE_STATE' });
    expect(first.data).toMatchObject({ status: 'NOT_CONFIGURED', edgeName: 'TEST-SN-0001', edgeKey: '' });

    await configureUnreachableCloud(t, 'key-1');
    const changed = await ws.next<EdgeStateUpdate>((m) => m.cmdId === 1 && keyed('key-1')(m));
    expect(changed.cmdUpdateType).toBe('EDGE_STATE');
    expect(['CONNECTING', 'DISCONNECTED']).toContain(changed.data.status);

    await expectSilenced(ws, {
      cmdId: 1,
      end: { type: 'EDGE_STATE_UNSUBSCRIBE', cmdId: 1 },
      witness: edgeState(2),
      change: () => configureUnreachableCloud(t, 'key-2'),
      heard: keyed('key-2'),
    });
  });
});
