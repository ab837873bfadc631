/** The map tile URL of the system configuration (server/contract/map.ts). */
import { useEffect, useState } from 'react';
import { mapRoutes, type MapSettings } from '../../../server/contract/map.ts';
import { api } from '../../lib/api-client.ts';

export function loadMapSettings(): Promise<MapSettings> {
  return api(mapRoutes.get, { silent: true });
}

export function saveMapSettings(body: MapSettings): Promise<MapSettings> {
  return api(mapRoutes.save, { body, silent: true });
}

/**
 * The tile URL once known: undefined while loading, null when no map is configured or the call
 * failed (the coordinate fields then stand alone).
 */
export function useTileUrl(): string | null | undefined {
  const [tileUrl, setTileUrl] = useState<string | null | undefined>(undefined);
  useEffect(() => {
    let live = true;
    loadMapSettings().then(
      (s) => live && setTileUrl(s.tileUrl),
      () => live && setTileUrl(null),
    );
    return () => {
      live = false;
    };
  }, []);
  return tileUrl;
}
