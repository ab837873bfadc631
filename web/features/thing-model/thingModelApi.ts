/**
 * Thing-model calls over the contract (server/contract/thing-model.ts) and the published model as
 * the device pages read it. Drawer saves and the import are silent (their failures are shown where
 * they belong); the rest lets the client show the server's reason.
 */
import {
  thingModelRoutes,
  type ThingModelItem,
  type ThingModelItemBody,
  type ThingModelItemUpdateBody,
  type ThingModelStatus,
  type ThingModelTsl,
  type TslImportBody,
  type TslImportResult,
} from '../../../server/contract/thing-model.ts';
import { api } from '../../lib/api-client.ts';

export function createItem(body: ThingModelItemBody): Promise<ThingModelItem> {
  return api(thingModelRoutes.create, { body, silent: true });
}

export function updateItem(body: ThingModelItemUpdateBody): Promise<ThingModelItem> {
  return api(thingModelRoutes.update, { body, silent: true });
}

export async function deleteItems(ids: string[]): Promise<number> {
  const { deleted } = await api(thingModelRoutes.delete, { body: { ids } });
  return deleted;
}

export function modelStatus(deviceProfileId: string): Promise<ThingModelStatus> {
  return api(thingModelRoutes.status, { params: { deviceProfileId }, silent: true });
}

export function publishModel(deviceProfileId: string): Promise<ThingModelStatus> {
  return api(thingModelRoutes.publish, { params: { deviceProfileId } });
}

/** The draft, or the latest published version (404 before the first publication). */
export function exportTsl(deviceProfileId: string, published: boolean, silent = false): Promise<ThingModelTsl> {
  return api(thingModelRoutes.exportTsl, { params: { deviceProfileId }, query: { published }, silent });
}

export function importTsl(deviceProfileId: string, body: TslImportBody): Promise<TslImportResult> {
  return api(thingModelRoutes.importTsl, { params: { deviceProfileId }, body, silent: true, timeoutMs: 60_000 });
}
