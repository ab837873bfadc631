/**
 * Scene linkage calls over the contract (server/contract/scene-linkage.ts). Saves are silent: the
 * editor shows their failures; the rest let the client show the server's message.
 */
import {
  sceneLinkageRoutes,
  type Scene,
  type SceneCreateBody,
  type SceneLogEntry,
  type SceneUpdateBody,
} from '../../../server/contract/scene-linkage.ts';
import type { DeleteResult } from '../../../server/contract/common.ts';
import { MAX_PAGE_SIZE } from '../../../server/contract/common.ts';
import { api } from '../../lib/api-client.ts';

export function getScene(id: string): Promise<Scene> {
  return api(sceneLinkageRoutes.get, { params: { id } });
}

export function createScene(body: SceneCreateBody): Promise<Scene> {
  return api(sceneLinkageRoutes.create, { body, silent: true });
}

export function updateScene(body: SceneUpdateBody): Promise<Scene> {
  return api(sceneLinkageRoutes.update, { body, silent: true });
}

export function deleteScenes(ids: string[]): Promise<DeleteResult> {
  return api(sceneLinkageRoutes.remove, { body: { ids } });
}

export function setSceneEnabled(id: string, enabled: boolean): Promise<Scene> {
  return api(sceneLinkageRoutes.setEnabled, { params: { id }, body: { enabled } });
}

export function executeScene(id: string): Promise<SceneLogEntry> {
  return api(sceneLinkageRoutes.execute, { params: { id } });
}

/** Every scene (at most one full page): the scene-trigger choices and the device task tab. */
export async function listAllScenes(): Promise<Scene[]> {
  const page = await api(sceneLinkageRoutes.list, { query: { page: 1, pageSize: MAX_PAGE_SIZE } });
  return page.items;
}
