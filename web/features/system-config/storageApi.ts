/** History storage calls over the contract: its state, the global retention and products' own retention. */
import { telemetryStorageRoutes, type StorageState } from '../../../server/contract/telemetry-storage.ts';
import { telemetryRoutes } from '../../../server/contract/telemetry.ts';
import { api } from '../../lib/api-client.ts';

export function loadStorage(): Promise<StorageState> {
  return api(telemetryStorageRoutes.storage);
}

export async function saveGlobalRetention(days: number): Promise<void> {
  await api(telemetryRoutes.updateSettings, { body: { telemetryRetentionDays: days } });
}

/** `null` puts the product back on the global retention. */
export async function saveProductRetention(productId: string, days: number | null): Promise<void> {
  await api(telemetryStorageRoutes.setProductRetention, { params: { id: productId }, body: { retentionDays: days } });
}
