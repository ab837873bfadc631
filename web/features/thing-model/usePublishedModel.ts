/**
 * The published thing model of a product, as device pages read it (only the published version
 * applies to devices): properties for the data cards, services for commands, events for the event
 * list. `model` is null while nothing is published.
 */
import { useCallback, useEffect, useState } from 'react';
import type { ThingModelTsl } from '../../../server/contract/thing-model.ts';
import { ApiError } from '../../lib/api-client.ts';
import { exportTsl } from './thingModelApi.ts';

export interface PublishedModelState {
  model: ThingModelTsl | null;
  loading: boolean;
  /** The load failed for another reason than "nothing published" (the client showed why). */
  failed: boolean;
  reload: () => Promise<void>;
}

export function usePublishedModel(deviceProfileId: string): PublishedModelState {
  const [model, setModel] = useState<ThingModelTsl | null>(null);
  const [loading, setLoading] = useState(true);
  const [failed, setFailed] = useState(false);

  const reload = useCallback(async (): Promise<void> => {
    setLoading(true);
    setFailed(false);
    try {
      setModel(await exportTsl(deviceProfileId, true, true));
    } catch (err) {
      setModel(null);
      // 404: nothing published yet, which the views say in their own words.
      if (!(err instanceof ApiError && err.status === 404)) setFailed(true);
    } finally {
      setLoading(false);
    }
  }, [deviceProfileId]);

  useEffect(() => {
    void reload();
  }, [reload]);

  return { model, loading, failed, reload };
}
