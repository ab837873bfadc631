/**
 * State whose updates are merged at once but rendered at most once per animation frame. A wall of
 * widgets receives one websocket message per device and second, often several back to back (the
 * gateway stores telemetry in batches); rendering each would redo the whole grid several times
 * within one frame. In a hidden tab no frame comes: updates keep merging into one value, so
 * nothing piles up.
 */
import { useCallback, useEffect, useRef, useState } from 'react';

export function useFrameState<T>(initial: T): [T, (update: (previous: T) => T) => void] {
  const [state, setState] = useState(initial);
  // The newest value, rendered or not: each update builds on it.
  const newest = useRef(initial);
  const frame = useRef(0);
  useEffect(() => () => cancelAnimationFrame(frame.current), []);
  const update = useCallback((fn: (previous: T) => T) => {
    newest.current = fn(newest.current);
    if (frame.current) return;
    frame.current = requestAnimationFrame(() => {
      frame.current = 0;
      setState(newest.current);
    });
  }, []);
  return [state, update];
}
