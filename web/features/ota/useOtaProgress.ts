/** A firmware's devices and their `fw_state`, followed live over /api/ws (OTA_PROGRESS). */
import { useEffect, useState } from 'react';
import type { OtaDevice } from '../../../server/contract/ota.ts';
import { subscribe } from '../../lib/ws-client.ts';

export function useOtaProgress(packageId: string | null): OtaDevice[] | null {
  const [devices, setDevices] = useState<OtaDevice[] | null>(null);
  useEffect(() => {
    setDevices(null);
    if (!packageId) return undefined;
    return subscribe({ type: 'OTA_PROGRESS', packageId }, (update) => {
      if (update.cmdUpdateType === 'OTA_PROGRESS' && !update.errorCode) setDevices(update.data);
    });
  }, [packageId]);
  return devices;
}
