/**
 * A value the server holds that changes on its own (a TCP link, the points' last readings), loaded
 * now and again every `intervalMs` while the view is mounted. A failed refresh keeps the last value;
 * a failure `final` accepts (a refusal that asking again cannot change) ends the refreshing.
 */
import { useCallback, useEffect, useRef, useState } from 'react';

export interface Polled<T> {
  data: T | null;
  /** True until the first load ended. */
  loading: boolean;
  /** The last load failed (the first one, or a later one). */
  error: unknown;
  /** Loads now (after a read or a write) without waiting for the next turn. */
  reload: () => Promise<void>;
  /** Replaces the value with one the caller already has (an answer that carries it). */
  set: (update: (data: T | null) => T | null) => void;
}

export function usePolled<T>(load: () => Promise<T>, intervalMs: number, final?: (err: unknown) => boolean): Polled<T> {
  const [data, setData] = useState<T | null>(null);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<unknown>(null);
  const latest = useRef(load);
  latest.current = load;
  const isFinal = useRef(final);
  isFinal.current = final;
  const stopped = useRef(false);

  const reload = useCallback(async (): Promise<void> => {
    if (stopped.current) return;
    try {
      setData(await latest.current());
      setError(null);
    } catch (err) {
      if (isFinal.current?.(err)) stopped.current = true;
      setError(err);
    } finally {
      setLoading(false);
    }
  }, []);

  useEffect(() => {
    void reload();
    const timer = setInterval(() => void reload(), intervalMs);
    return () => clearInterval(timer);
  }, [reload, intervalMs]);

  return { data, loading, error, reload, set: setData };
}
