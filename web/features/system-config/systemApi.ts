/** Calls about the gateway itself over the contract: basic info, time settings, factory reset. */
import { licenseRoutes, type SetupState } from '../../../server/contract/license.ts';
import { systemRoutes, type FactoryResetBody, type SystemInfo, type SystemTime, type SystemTimeBody } from '../../../server/contract/system.ts';
import { api } from '../../lib/api-client.ts';

export function loadSystemInfo(): Promise<SystemInfo> {
  return api(systemRoutes.info);
}

export function saveSystemTime(body: SystemTimeBody): Promise<SystemTime> {
  return api(systemRoutes.time, { body, silent: true });
}

export async function requestFactoryReset(body: FactoryResetBody): Promise<void> {
  await api(systemRoutes.reset, { body, silent: true });
}

/** The setup state, or null while the gateway does not answer (it restarts during a reset). */
export async function pollSetupState(): Promise<SetupState | null> {
  try {
    return await api(licenseRoutes.setupState, { silent: true });
  } catch {
    return null;
  }
}
