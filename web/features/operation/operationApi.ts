/**
 * Operation management's calls over the contract: branding (server/contract/platform.ts), banners
 * and guide entries (server/contract/operation.ts). Saves are silent: drawers and forms show the
 * failure on its field.
 */
import { platformRoutes, type PlatformInfo, type PlatformInfoBody } from '../../../server/contract/platform.ts';
import {
  bannerRoutes,
  guideRoutes,
  type OperationCreateBody,
  type OperationEntry,
  type OperationKind,
  type OperationUpdateBody,
  type ShownEntry,
} from '../../../server/contract/operation.ts';
import type { DeleteResult } from '../../../server/contract/common.ts';
import { api } from '../../lib/api-client.ts';
import { sessionActions } from '../../stores/session.ts';

export const entryRoutes = { banner: bannerRoutes, guide: guideRoutes } as const;

/** Saves the branding and applies it to this tab at once (other tabs hear it through storage). */
export async function saveBranding(body: PlatformInfoBody): Promise<PlatformInfo> {
  const saved = await api(platformRoutes.update, { body, silent: true });
  sessionActions.setPlatform(saved);
  return saved;
}

export function createEntry(kind: OperationKind, body: OperationCreateBody): Promise<OperationEntry> {
  return api(entryRoutes[kind].create, { body, silent: true });
}

export function updateEntry(kind: OperationKind, body: OperationUpdateBody): Promise<OperationEntry> {
  return api(entryRoutes[kind].update, { body, silent: true });
}

export function deleteEntries(kind: OperationKind, ids: string[]): Promise<DeleteResult> {
  return api(entryRoutes[kind].remove, { body: { ids } });
}

/** The login page's banners: public, enabled ones by sort. */
export function shownBanners(): Promise<ShownEntry[]> {
  return api(bannerRoutes.shown, { silent: true });
}

/** The workbench's guide entries: enabled ones by sort. */
export function shownGuides(): Promise<ShownEntry[]> {
  return api(guideRoutes.shown, { silent: true });
}
