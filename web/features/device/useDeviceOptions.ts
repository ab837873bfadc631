/** Choices of the device forms: products (`me/list`) and gateway devices, loaded when a form opens. */
import { useEffect, useState } from 'react';
import type { Device } from '../../../server/contract/device.ts';
import type { ProductOption } from '../../../server/contract/product.ts';
import { listGateways, listProductOptions } from './deviceApi.ts';

export interface Loaded<T> {
  items: T[];
  loading: boolean;
}

/** Every product, fetched again each time `enabled` turns true (a form opens), so new products show. */
export function useProductOptions(enabled = true): Loaded<ProductOption> {
  const [state, setState] = useState<Loaded<ProductOption>>({ items: [], loading: true });
  useEffect(() => {
    if (!enabled) return;
    let live = true;
    setState((s) => ({ ...s, loading: true }));
    listProductOptions().then(
      (items) => live && setState({ items, loading: false }),
      () => live && setState({ items: [], loading: false }),
    );
    return () => {
      live = false;
    };
  }, [enabled]);
  return state;
}

/** Gateway devices, fetched only while `enabled` (a SENSOR product is chosen). */
export function useGateways(enabled: boolean): Loaded<Device> {
  const [state, setState] = useState<Loaded<Device>>({ items: [], loading: false });
  useEffect(() => {
    if (!enabled) return;
    let live = true;
    setState((s) => ({ ...s, loading: true }));
    listGateways().then(
      (items) => live && setState({ items, loading: false }),
      () => live && setState({ items: [], loading: false }),
    );
    return () => {
      live = false;
    };
  }, [enabled]);
  return state;
}
