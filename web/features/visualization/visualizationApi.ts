/** Visualization calls over the contract: configurations, share links and the shared reads. */
import type { DeleteResult } from '../../../server/contract/common.ts';
import type { Command } from '../../../server/contract/command.ts';
import type { TimeseriesValues } from '../../../server/contract/telemetry.ts';
import { telemetryRoutes } from '../../../server/contract/telemetry.ts';
import {
  visualizationRoutes as r,
  type ShareLink,
  type SharedHistoryQuery,
  type SharedVisualization,
  type Visualization,
  type VisualizationBody,
  type VisualizationUpdateBody,
} from '../../../server/contract/visualization.ts';
import { api } from '../../lib/api-client.ts';
import { sendCommand } from '../command/commandApi.ts';

export function getVisualization(id: string): Promise<Visualization> {
  return api(r.get, { params: { id } });
}

export function createVisualization(body: VisualizationBody): Promise<Visualization> {
  return api(r.create, { body });
}

export function saveVisualization(body: VisualizationUpdateBody): Promise<Visualization> {
  return api(r.update, { body });
}

export function deleteVisualizations(ids: string[]): Promise<DeleteResult> {
  return api(r.delete, { body: { ids } });
}

export function shareVisualization(id: string, expiresAt?: number): Promise<ShareLink> {
  return api(r.share, { params: { id }, body: expiresAt === undefined ? {} : { expiresAt } });
}

export async function revokeShare(id: string): Promise<void> {
  await api(r.unshare, { params: { id } });
}

/** Silent: the share page shows a 404 as its own "link not valid" state. */
export function getShared(shareToken: string): Promise<SharedVisualization> {
  return api(r.shared, { params: { shareToken }, silent: true });
}

export function getSharedHistory(shareToken: string, query: SharedHistoryQuery): Promise<{ ts: number; value: unknown }[]> {
  return api(r.sharedHistory, { params: { shareToken }, query, silent: true });
}

/** A signed-in chart's history: the device's own telemetry route. */
export async function getHistory(deviceId: string, key: string, startTs: number): Promise<{ ts: number; value: unknown }[]> {
  const values: TimeseriesValues = await api(telemetryRoutes.timeseries, { params: { id: deviceId }, query: { keys: key, startTs, limit: 1000, orderBy: 'ASC', useStrictDataTypes: true }, silent: true });
  return values[key] ?? [];
}

/** A switch or button writes its bound key (an ATTRIBUTE command, as the command dialog sends one). */
export function writeKey(deviceId: string, key: string, value: unknown): Promise<Command> {
  return sendCommand(deviceId, { commandType: 'ATTRIBUTE', callType: 'ASYNC', way: 'oneway', content: { [key]: value } });
}
