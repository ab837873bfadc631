/** The products the device forms choose from (`me/list`: every product), loaded when a form opens. */
import { useEffect, useState } from 'react';
import type { ProductOption } from '../../../server/contract/product.ts';
import { listProductOptions } from './deviceApi.ts';

export interface Loaded<T> {
  items: T[];
  /** True until the first answer (or failure); a refetch keeps the list it has meanwhile. */
  loading: boolean;
}

/**
 * A list fetched each time `enabled` turns true (a form opens), so what changed elsewhere shows.
 * A form waiting for the first answer opens once and does not flicker on later refetches.
 */
function useLoadedList<T>(load: () => Promise<T[]>, enabled: boolean): Loaded<T> {
  const [state, setState] = useState<Loaded<T>>({ items: [], loading: true });
  useEffect(() => {
    if (!enabled) return;
    let live = true;
    load().then(
      (items) => live && setState({ items, loading: false }),
      () => live && setState((s) => ({ ...s, loading: false })),
    );
    return () => {
      live = false;
    };
    // oxlint-disable-next-line react-hooks/exhaustive-deps -- `load` is a module function; only `enabled` starts a fetch.
  }, [enabled]);
  return state;
}

export function useProductOptions(enabled = true): Loaded<ProductOption> {
  return useLoadedList(listProductOptions, enabled);
}
