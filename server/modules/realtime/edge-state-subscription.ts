/**
 * EDGE_STATE (server/contract/realtime.ts): the cloud link's state, answered at once and again
 * whenever the cloud link announces a change (`edge.stateChanged`), so the edge state page follows
 * CONNECTING → CONNECTED, the backlog and the messages sent without polling.
 */
import type { Language } from '../../contract/languages.ts';
import { WsErrorCode, type EdgeStateUpdate } from '../../contract/realtime.ts';
import type { LiveData } from './live-data.ts';
import { Subscription, type LiveSink } from './live-subscriptions.ts';

export class EdgeStateSubscription extends Subscription {
  readonly deviceIds: readonly string[] = [];
  override readonly followsEdgeState = true;

  constructor(
    cmdId: number,
    sink: LiveSink,
    data: LiveData,
    private readonly lang: Language,
  ) {
    super(cmdId, sink, data);
  }

  start(): void {
    this.send();
  }

  override edgeStateChanged(): void {
    this.send();
  }

  private send(): void {
    const update: EdgeStateUpdate = {
      subscriptionId: this.cmdId,
      cmdId: this.cmdId,
      errorCode: WsErrorCode.NO_ERROR,
      errorMsg: null,
      data: this.data.edgeState(this.lang),
      cmdUpdateType: 'EDGE_STATE',
    };
    this.sink.send(update);
  }
}
