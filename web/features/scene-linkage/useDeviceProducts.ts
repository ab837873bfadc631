/** The product of each device a scene commands, so the editor can offer that product's model again. */
import { useCallback } from 'react';
import { getDevice } from '../device/deviceApi.ts';

export function useDeviceProducts(): (deviceIds: readonly string[]) => Promise<Map<string, string>> {
  return useCallback(async (deviceIds) => {
    const out = new Map<string, string>();
    await Promise.all(
      [...new Set(deviceIds)].map((id) =>
        getDevice(id).then(
          (d) => out.set(id, d.deviceProfileId),
          // A deleted device: the action shows without a product; the save says what is wrong.
          () => undefined,
        ),
      ),
    );
    return out;
  }, []);
}
