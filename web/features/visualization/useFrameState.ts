/**
 * A record (per device) whose updates are merged at once but rendered at most once per animation
 * frame, and at most KEYS_PER_FRAME of its entries per frame. A wall of widgets receives one
 * websocket message per device and second, often several back to back (the gateway stores
 * telemetry in batches); rendering each would redo the grid several times within one frame. The
 * first answer brings every device at once: rendering all 30 widgets (cold code, a garbage
 * collection) in one frame took 40 ms and dropped frames (issue 31's bench), so the entries
 * beyond the budget wait for the next frames. At 1 Hz a frame carries one or two. In a hidden tab
 * no frame comes: updates keep merging, so nothing piles up.
 */
import { useCallback, useEffect, useRef, useState } from 'react';

/** Entries rendered per frame: a few widgets' worth of work keeps a frame well under 16 ms. */
export const KEYS_PER_FRAME = 6;

export type FrameRecordUpdate<V> = (key: string, update: (previous: V | undefined) => V) => void;

export function useFrameRecord<V>(): [Readonly<Record<string, V>>, FrameRecordUpdate<V>] {
  const [shown, setShown] = useState<Readonly<Record<string, V>>>({});
  // The newest value per key, rendered or not: each update builds on it.
  const newest = useRef(new Map<string, V>());
  // Keys changed since they were last rendered, oldest first (a Map keeps insertion order).
  const dirty = useRef(new Set<string>());
  const frame = useRef(0);
  useEffect(() => () => cancelAnimationFrame(frame.current), []);

  const update = useCallback<FrameRecordUpdate<V>>((key, fn) => {
    const before = newest.current.get(key);
    const after = fn(before);
    if (after === before) return;
    newest.current.set(key, after);
    dirty.current.add(key);
    if (frame.current) return;
    frame.current = requestAnimationFrame(function flush(): void {
      const keys = [...dirty.current].slice(0, KEYS_PER_FRAME);
      for (const k of keys) dirty.current.delete(k);
      setShown((previous) => {
        const next = { ...previous };
        for (const k of keys) next[k] = newest.current.get(k)!;
        return next;
      });
      frame.current = dirty.current.size ? requestAnimationFrame(flush) : 0;
    });
  }, []);
  return [shown, update];
}
