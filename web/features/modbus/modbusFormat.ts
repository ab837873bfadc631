/**
 * Pure formatting of what the TCP link and Modbus tabs show: frames as spaced hex bytes, register
 * addresses as 0x words, a poll request as its register range, a point's value and outcome.
 */
import type { ModbusPoint, ModbusRequest, PointReading } from '../../../server/contract/modbus.ts';
import type { ModbusDescriptor } from '../../../server/contract/thing-model.ts';

/** Upper-case hex as byte pairs separated by spaces (`0103A0` → `01 03 A0`); a stray odd digit stays last. */
export function spacedHex(hex: string): string {
  const digits = hex.replace(/[^0-9a-fA-F]/g, '').toUpperCase();
  return (digits.match(/.{1,2}/g) ?? []).join(' ');
}

/** Bytes in a hex string (an odd trailing digit counts as a byte). */
export function hexByteCount(hex: string): number {
  return Math.ceil(hex.replace(/[^0-9a-fA-F]/g, '').length / 2);
}

/** A 16-bit register address as `0x` and four hex digits. */
export function hexWord(value: number): string {
  return `0x${value.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** What a read request addresses, by function code (01 coils … 04 input registers). */
export const requestObjects = { 1: 'coils', 2: 'discreteInputs', 3: 'holdingRegisters', 4: 'inputRegisters' } as const;
export type RequestObject = (typeof requestObjects)[keyof typeof requestObjects];

/** One row of the request plan table. */
export interface PlanRow {
  key: string;
  /** `01` … `04`. */
  functionCode: string;
  object: RequestObject;
  start: string;
  /** Last address the request covers. */
  end: string;
  count: number;
  identifiers: string[];
}

/** The plan's requests as table rows, in the order the server sends them. */
export function planRows(requests: readonly ModbusRequest[]): PlanRow[] {
  return requests.map((request, index) => ({
    key: `${request.function}-${request.start}-${index}`,
    functionCode: String(request.function).padStart(2, '0'),
    object: requestObjects[request.function as keyof typeof requestObjects],
    start: hexWord(request.start),
    end: hexWord(Math.min(0xffff, request.start + request.count - 1)),
    count: request.count,
    identifiers: [...request.identifiers],
  }));
}

/** Where a point sits: its address, and for registers the range it spans (`0x0010–0x0011`). */
export function pointAddress(desc: Pick<ModbusDescriptor, 'registerAddress' | 'registerCount'>): string {
  const count = desc.registerCount ?? 1;
  const start = hexWord(desc.registerAddress);
  return count > 1 ? `${start}–${hexWord(Math.min(0xffff, desc.registerAddress + count - 1))}` : start;
}

/** A value as shown: numbers without float noise, none as a dash. */
export function pointValueText(value: number | boolean | string | null | undefined): string {
  if (value === null || value === undefined) return '—';
  if (typeof value === 'number') return Number.isInteger(value) ? String(value) : String(Number(value.toPrecision(10)));
  return String(value);
}

/**
 * The function code a write of this point uses (as the server picks it): 05 for a coil, 06 for a
 * one-register value, 16 for wider ones.
 */
export function writeFunctionCode(desc: Pick<ModbusDescriptor, 'operationType' | 'registerCount'>): string {
  if (desc.operationType.startsWith('COIL_')) return '05';
  return (desc.registerCount ?? 1) > 1 ? '16' : '06';
}

/** The points with the readings of a "read now" answer applied (points not in it unchanged). */
export function mergeReadings(points: readonly ModbusPoint[], readings: readonly PointReading[]): ModbusPoint[] {
  const byId = new Map(readings.map((r) => [r.identifier, r]));
  return points.map((point) => {
    const reading = byId.get(point.identifier);
    return reading ? { ...point, ...reading } : point;
  });
}

/** How often the points list refreshes: the polling period, kept between 1 s and 10 s. */
export function pointRefreshMs(pollIntervalMs: number): number {
  return Math.min(10_000, Math.max(1_000, pollIntervalMs));
}
