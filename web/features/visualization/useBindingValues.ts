/**
 * The latest values of a layout's bindings, from one of two sources: signed in, a TIMESERIES
 * subscription per bound device on the console's live connection (a device that is gone answers
 * NOT_FOUND and is reported missing); through a share link, the link's own guest socket
 * (shareSocket.ts), which sends exactly the link's bindings as they arrive.
 */
import { useEffect, useMemo, useState } from 'react';
import { WsErrorCode } from '../../../server/contract/realtime.ts';
import type { Layout } from '../../../server/contract/visualization.ts';
import { isTelemetry, mergeLatest, type LatestValues } from '../../lib/use-live.ts';
import { subscribe } from '../../lib/ws-client.ts';
import { followShare, mergeSharedDevice } from './shareSocket.ts';
import { useFrameRecord } from './useFrameState.ts';

/** Where values come from: the signed-in console, or a share link's token. */
export type ValueSource = { kind: 'live' } | { kind: 'share'; shareToken: string };

export interface BindingValues {
  /** Latest value per device and key. */
  values: Readonly<Record<string, LatestValues>>;
  /** Bound devices that do not exist (deleted since the layout was saved). */
  missing: ReadonlySet<string>;
  /** The share link stopped answering (revoked or expired). */
  gone: boolean;
}

/** Bound keys per device, as a stable text key for effects. */
function bindingText(layout: Layout): string {
  const byDevice = new Map<string, Set<string>>();
  for (const w of layout.widgets) {
    if (!w.binding) continue;
    const keys = byDevice.get(w.binding.deviceId) ?? new Set<string>();
    keys.add(w.binding.key);
    byDevice.set(w.binding.deviceId, keys);
  }
  const pairs = [...byDevice].map(([id, keys]) => [id, [...keys].sort().join(',')] as const);
  return JSON.stringify(pairs.sort((a, b) => a[0].localeCompare(b[0])));
}

function useLiveValues(bindings: string, enabled: boolean): BindingValues {
  const [values, setDevice] = useFrameRecord<LatestValues>();
  const [missing, setMissing] = useState<ReadonlySet<string>>(new Set());
  useEffect(() => {
    if (!enabled) return undefined;
    const pairs = JSON.parse(bindings) as [string, string][];
    const offs = pairs.map(([deviceId, keys]) =>
      subscribe({ type: 'TIMESERIES', entityType: 'DEVICE', entityId: deviceId, scope: 'LATEST_TELEMETRY', useStrictDataTypes: true, keys }, (update) => {
        if (update.errorCode === WsErrorCode.NOT_FOUND) setMissing((m) => new Set([...m, deviceId]));
        else if (isTelemetry(update)) setDevice(deviceId, (v) => mergeLatest(v ?? {}, update));
      }),
    );
    return () => offs.forEach((off) => off());
  }, [bindings, enabled, setDevice]);
  return { values, missing, gone: false };
}

function useSharedValues(shareToken: string | null): BindingValues {
  const [values, setDevice] = useFrameRecord<LatestValues>();
  const [gone, setGone] = useState(false);
  useEffect(() => {
    if (!shareToken) return undefined;
    return followShare(shareToken, {
      values: (data) => {
        for (const [deviceId, points] of Object.entries(data)) setDevice(deviceId, (v) => mergeSharedDevice(v, points));
      },
      gone: () => setGone(true),
    });
  }, [shareToken, setDevice]);
  return { values, missing: new Set(), gone };
}

export function useBindingValues(layout: Layout, source: ValueSource): BindingValues {
  const bindings = useMemo(() => bindingText(layout), [layout]);
  const live = useLiveValues(bindings, source.kind === 'live');
  const shared = useSharedValues(source.kind === 'share' ? source.shareToken : null);
  return source.kind === 'live' ? live : shared;
}
