/**
 * What the scene editor chooses from, loaded once per opening and shared by its parts: each
 * product's PUBLISHED thing model, fetched the first time a part names the product; later parts
 * naming it reuse the answer. Products and devices are searched on the server by their selects.
 */
import { createContext, useContext, useEffect, useRef, useState } from 'react';
import type { ThingModelTsl } from '../../../server/contract/thing-model.ts';
import { exportTsl } from '../thing-model/thingModelApi.ts';

/** A product's published model: undefined while loading, null when nothing is published. */
export type ModelState = ThingModelTsl | null | undefined;

export class SceneChoices {
  private models = new Map<string, Promise<ThingModelTsl | null>>();
  private loadedModels = new Map<string, ThingModelTsl | null>();

  model(deviceProfileId: string): Promise<ThingModelTsl | null> {
    let p = this.models.get(deviceProfileId);
    if (!p) {
      p = exportTsl(deviceProfileId, true, true).catch(() => null);
      void p.then((m) => this.loadedModels.set(deviceProfileId, m));
      this.models.set(deviceProfileId, p);
    }
    return p;
  }

  /** The model if it is already loaded (the save builds DEVICE_OUT content from it). */
  loadedModel(deviceProfileId: string | undefined): ThingModelTsl | null {
    return deviceProfileId ? (this.loadedModels.get(deviceProfileId) ?? null) : null;
  }
}

export const SceneChoicesContext = createContext<SceneChoices | null>(null);

function useChoices(): SceneChoices {
  const choices = useContext(SceneChoicesContext);
  if (!choices) throw new Error('SceneChoicesContext is missing');
  return choices;
}

/** What `load` resolves to, loaded again when `key` changes (the drawer remounts its parts on each opening). */
function usePromised<T>(load: (() => Promise<T>) | null, key: string): T | undefined {
  const [value, setValue] = useState<{ key: string; value: T } | undefined>(undefined);
  const latest = useRef(load);
  latest.current = load;
  useEffect(() => {
    const run = latest.current;
    if (!run) return undefined;
    let live = true;
    void run().then((v) => live && setValue({ key, value: v }));
    return () => {
      live = false;
    };
  }, [key]);
  return value && value.key === key ? value.value : undefined;
}

export function usePublishedModelOf(deviceProfileId: string | undefined): ModelState {
  const choices = useChoices();
  const model = usePromised(deviceProfileId ? () => choices.model(deviceProfileId) : null, deviceProfileId ?? '');
  return deviceProfileId ? model : null;
}
