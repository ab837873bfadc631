/** Node-RED instance and snapshot calls over the contract (server/contract/node-red.ts). */
import {
  nodeRedRoutes,
  type NodeRedCreateBody,
  type NodeRedFlows,
  type NodeRedInstance,
  type NodeRedLog,
  type NodeRedService,
  type NodeRedSnapshot,
  type NodeRedTicket,
  type NodeRedUpdateBody,
} from '../../../server/contract/node-red.ts';
import type { DeleteResult } from '../../../server/contract/common.ts';
import { api } from '../../lib/api-client.ts';

export function createInstance(body: NodeRedCreateBody): Promise<NodeRedInstance> {
  return api(nodeRedRoutes.create, { body, silent: true });
}

export function updateInstance(body: NodeRedUpdateBody): Promise<NodeRedInstance> {
  return api(nodeRedRoutes.update, { body, silent: true });
}

/** Turns HTTP-in exposure on or off, keeping the rest; a refusal shows as the usual error message. */
export function setExposeHttp(instance: NodeRedInstance, exposeHttp: boolean): Promise<NodeRedInstance> {
  const { id, name, port, description } = instance;
  return api(nodeRedRoutes.update, { body: { id, name, port, description, exposeHttp } });
}

export function deleteInstances(ids: string[]): Promise<DeleteResult> {
  return api(nodeRedRoutes.remove, { body: { ids } });
}

export function serviceState(): Promise<NodeRedService> {
  return api(nodeRedRoutes.service, { silent: true });
}

export function getInstance(id: string): Promise<NodeRedInstance> {
  return api(nodeRedRoutes.get, { params: { id } });
}

export type InstanceAction = 'start' | 'stop' | 'restart';

export function instanceAction(id: string, action: InstanceAction): Promise<NodeRedInstance> {
  return api(nodeRedRoutes[action], { params: { id } });
}

export function instanceLog(id: string): Promise<NodeRedLog> {
  return api(nodeRedRoutes.log, { params: { id } });
}

export function takeSnapshot(id: string, note: string): Promise<NodeRedSnapshot> {
  return api(nodeRedRoutes.takeSnapshot, { params: { id }, body: note ? { note } : {} });
}

/** Generous: the gateway answers only once the instance has stayed healthy, or after it put the replaced flows back (60 s window). */
const ROLLBACK_TIMEOUT_MS = 150_000;

export function rollback(id: string, snapshotId: string): Promise<{ ok: boolean }> {
  return api(nodeRedRoutes.rollback, { params: { id, snapshotId }, timeoutMs: ROLLBACK_TIMEOUT_MS });
}

/** A snapshot's flows, or with `snapshotId` null the flows deployed now. */
export async function flowsOf(id: string, snapshotId: string | null): Promise<NodeRedFlows['flows']> {
  if (snapshotId === null) return (await api(nodeRedRoutes.flows, { params: { id } })).flows;
  return (await api(nodeRedRoutes.snapshot, { params: { id, snapshotId } })).flows;
}

/**
 * Opens the instance's editor in a new tab with a fresh single-use ticket. The tab is opened
 * before the call, while the click still counts as the user's gesture (popup blockers).
 */
export async function openEditor(id: string): Promise<void> {
  const tab = window.open('about:blank', '_blank');
  try {
    const { editorUrl }: NodeRedTicket = await api(nodeRedRoutes.ticket, { params: { id } });
    if (tab) {
      tab.opener = null;
      tab.location.href = editorUrl;
    } else window.location.assign(editorUrl);
  } catch (err) {
    tab?.close();
    throw err;
  }
}
