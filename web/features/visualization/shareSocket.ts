/**
 * A share page's own socket to /api/ws (VIS_SHARE, server/contract/realtime.ts): a guest socket
 * with no sign-in, apart from the console's live connection (ws-client.ts), which carries a user's
 * token. It answers the latest values of the link's bindings, then what arrives. A 1008 close or a
 * NOT_FOUND answer means the link was revoked or expired; any other close reconnects after
 * WS_RECONNECT_DELAY_MS and asks again.
 */
import { WS_POLICY_VIOLATION, WS_RECONNECT_DELAY_MS, WsErrorCode, type WsUpdate } from '../../../server/contract/realtime.ts';
import { VIS_SHARE_CMD, type SharedAlarm, type SharedLatest, type SharedLiveUpdate } from '../../../server/contract/visualization.ts';
import type { LatestValues } from '../../lib/use-live.ts';
import { liveSocketUrl } from '../../lib/ws-client.ts';

export interface ShareListener {
  values(data: SharedLatest): void;
  /** Alarms of the devices the link's alarm lists bind (the active ones first, then changes). */
  alarms?(list: SharedAlarm[]): void;
  gone(): void;
}

/** One device's `values` with what `points` brings for it, a key's newer value winning; the same object when nothing is newer. */
export function mergeSharedDevice(values: LatestValues | undefined, points: SharedLatest[string]): LatestValues {
  let next = values;
  for (const [key, point] of Object.entries(points)) {
    const seen = next?.[key];
    if (seen && seen.ts > point.ts) continue;
    const copy: LatestValues = next === values ? { ...values } : next!;
    copy[key] = { ts: point.ts, value: point.value };
    next = copy;
  }
  return next ?? {};
}

/** `values` with what `data` brings for them, a key's newer value winning; the same object when nothing is newer. */
export function mergeShared(values: Readonly<Record<string, LatestValues>>, data: SharedLatest): Record<string, LatestValues> {
  let next = values as Record<string, LatestValues>;
  for (const [deviceId, points] of Object.entries(data)) {
    const merged = mergeSharedDevice(next[deviceId], points);
    if (merged === next[deviceId]) continue;
    if (next === values) next = { ...values };
    next[deviceId] = merged;
  }
  return next;
}

/** Follows the link until the returned function is called or the link ends. */
export function followShare(shareToken: string, listener: ShareListener): () => void {
  let socket: WebSocket | null = null;
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const end = (): void => {
    stopped = true;
    clearTimeout(timer);
    socket?.close(1000);
  };
  const connect = (): void => {
    const ws = new WebSocket(liveSocketUrl());
    socket = ws;
    ws.onopen = () => ws.send(JSON.stringify({ cmds: [{ type: VIS_SHARE_CMD, cmdId: 1, shareToken }] }));
    ws.onmessage = (event: MessageEvent<string>) => {
      const update = JSON.parse(event.data) as WsUpdate;
      if (update.errorCode === WsErrorCode.NOT_FOUND) {
        end();
        listener.gone();
      } else if (update.cmdUpdateType === VIS_SHARE_CMD) {
        const shared = update as SharedLiveUpdate;
        listener.values(shared.data);
        if (shared.alarms) listener.alarms?.(shared.alarms);
      }
    };
    ws.onclose = (event: CloseEvent) => {
      if (stopped) return;
      if (event.code === WS_POLICY_VIOLATION) {
        stopped = true;
        listener.gone();
        return;
      }
      timer = setTimeout(connect, WS_RECONNECT_DELAY_MS);
    };
  };
  connect();
  return end;
}
