/**
 * The cloud link's live command on /api/ws (server/live.ts; server/contract/realtime.ts):
 * EDGE_STATE answers the cloud link's state at once and again whenever the cloud link announces a
 * change (`edge.stateChanged`), so the edge state page follows CONNECTING → CONNECTED, the backlog
 * and the messages sent without polling.
 */
import { EdgeStateCmdSchema, WsErrorCode } from '../../contract/realtime.ts';
import { ALL, Followers } from '../../lib/followers.ts';
import { liveCommand, type LiveCommands, type LiveContext, type LiveRequest } from '../../live.ts';
import type { Services } from '../../module.ts';

export function cloudLinkLive({ cloudLink }: Pick<Services, 'cloudLink'>, { bus, log }: LiveContext): LiveCommands {
  const followers = new Followers<() => void>(log);
  bus.on('edge.stateChanged', () => followers.each(ALL, (send) => send()));

  const sendState = (request: LiveRequest<unknown>): void =>
    request.send({
      subscriptionId: request.cmdId,
      cmdId: request.cmdId,
      errorCode: WsErrorCode.NO_ERROR,
      errorMsg: null,
      data: cloudLink.state(request.lang),
      cmdUpdateType: 'EDGE_STATE',
    });

  return {
    EDGE_STATE: liveCommand({
      schema: EdgeStateCmdSchema,
      updateType: 'EDGE_STATE',
      // The permission of its HTTP twin, GET /api/yt/edge/state: a customer is refused here as there.
      permission: 'edge:state',
      kind: 'subscription',
      open: (request) => {
        sendState(request);
        return { close: followers.add([ALL], () => sendState(request)) };
      },
    }),
  };
}
