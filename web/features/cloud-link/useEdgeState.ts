/**
 * The cloud link's state, live: one EDGE_STATE subscription on /api/ws answers it at once and again
 * on every change (no polling). Should the server refuse the subscription (an older upstream), the
 * state is read once over HTTP so the page still shows it.
 */
import { useEffect, useState } from 'react';
import type { EdgeState } from '../../../server/contract/cloud-link.ts';
import type { EdgeStateUpdate, WsUpdate } from '../../../server/contract/realtime.ts';
import { subscribe } from '../../lib/ws-client.ts';
import { fetchEdgeState } from './edgeStateApi.ts';

function isEdgeState(update: WsUpdate): update is EdgeStateUpdate {
  return update.cmdUpdateType === 'EDGE_STATE';
}

export function useEdgeState(): { state: EdgeState | null; loading: boolean } {
  const [state, setState] = useState<EdgeState | null>(null);
  const [loading, setLoading] = useState(true);
  useEffect(() => {
    let active = true;
    const unsubscribe = subscribe({ type: 'EDGE_STATE' }, (update) => {
      if (update.errorCode) {
        fetchEdgeState()
          .then((s) => active && setState(s))
          .catch(() => undefined)
          .finally(() => active && setLoading(false));
      } else if (isEdgeState(update)) {
        setState(update.data);
        setLoading(false);
      }
    });
    return () => {
      active = false;
      unsubscribe();
    };
  }, []);
  return { state, loading };
}
