/**
 * TCP link and Modbus calls over the contract (server/contract/modbus.ts). Read and write are
 * silent: the tab shows the outcome next to the point; a read waits for every request of a poll
 * cycle, a write for the slave's answer, so both may take longer than a plain call.
 */
import {
  modbusRoutes,
  type ModbusPlan,
  type ModbusPointList,
  type ModbusReadResult,
  type ModbusWriteBody,
  type ModbusWriteResult,
  type PointImportResult,
  type TcpLink,
} from '../../../server/contract/modbus.ts';
import type { ImportFormat } from '../../../server/contract/device-import.ts';
import { api } from '../../lib/api-client.ts';

const SLAVE_WAIT_MS = 60_000;

export function fetchLink(deviceId: string): Promise<TcpLink> {
  return api(modbusRoutes.link, { params: { id: deviceId }, silent: true });
}

export function fetchPoints(deviceId: string): Promise<ModbusPointList> {
  return api(modbusRoutes.points, { params: { id: deviceId }, silent: true });
}

/** Reads the named points now (all polled points when `identifiers` is left out). */
export function readPoints(deviceId: string, identifiers?: string[]): Promise<ModbusReadResult> {
  return api(modbusRoutes.read, { params: { id: deviceId }, body: identifiers ? { identifiers } : {}, silent: true, timeoutMs: SLAVE_WAIT_MS });
}

export function writePoint(deviceId: string, body: ModbusWriteBody): Promise<ModbusWriteResult> {
  return api(modbusRoutes.write, { params: { id: deviceId }, body, silent: true, timeoutMs: SLAVE_WAIT_MS });
}

/** The poll requests of the draft model (what the thing-model tab edits) or of the published one. */
export function fetchPlan(productId: string, source: 'draft' | 'published'): Promise<ModbusPlan> {
  return api(modbusRoutes.plan, { params: { id: productId }, query: { source } });
}

export async function fetchPointTable(productId: string, format: ImportFormat): Promise<Blob> {
  return (await api(modbusRoutes.exportPoints, { params: { id: productId }, query: { format }, responseType: 'blob' })) as unknown as Blob;
}

export function importPointTable(productId: string, file: File): Promise<PointImportResult> {
  const form = new FormData();
  form.append('file', file, file.name);
  return api(modbusRoutes.importPoints, { params: { id: productId }, form, silent: true, timeoutMs: SLAVE_WAIT_MS });
}
