/**
 * Which requests one poll cycle sends a slave (server/contract/modbus.ts, "Request plan"): points
 * grouped by read function, sorted by address, joined while the request stays within the
 * protocol's limit and the unused registers between two points are at most `gapMax`. Requests a
 * slave refused with "illegal data address" are listed in `split` and planned without gaps.
 */
import type { ModbusDescriptor, ModbusOperationType } from '../../contract/thing-model.ts';
import { MODBUS_MAX_BITS, MODBUS_MAX_REGISTERS, type ModbusRequest } from '../../contract/modbus.ts';
import { FC_READ_COILS, FC_READ_DISCRETE_INPUTS, FC_READ_HOLDING_REGISTERS, FC_READ_INPUT_REGISTERS, isBitFunction } from './modbus-pdu.ts';
import { pointSpan } from './point-codec.ts';

export interface PlanPoint {
  identifier: string;
  descriptor: ModbusDescriptor;
}

const readFunctions: Partial<Record<ModbusOperationType, number>> = {
  COIL_READ: FC_READ_COILS,
  COIL_READ_WRITE: FC_READ_COILS,
  DISCRETE_INPUT_READ: FC_READ_DISCRETE_INPUTS,
  HOLDING_REGISTER_READ: FC_READ_HOLDING_REGISTERS,
  HOLDING_REGISTER_READ_WRITE: FC_READ_HOLDING_REGISTERS,
  INPUT_REGISTER_READ: FC_READ_INPUT_REGISTERS,
};

/** The read function of a point; undefined for write-only points, which are never polled. */
export function readFunctionOf(d: ModbusDescriptor): number | undefined {
  return readFunctions[d.operationType];
}

/** Identifies a planned request (for the `split` set). */
export function requestKey(r: Pick<ModbusRequest, 'function' | 'start' | 'count'>): string {
  return `${r.function}:${r.start}:${r.count}`;
}

interface Span {
  identifier: string;
  start: number;
  end: number;
}

function join(fn: number, spans: readonly Span[], gapMax: number): ModbusRequest[] {
  const limit = isBitFunction(fn) ? MODBUS_MAX_BITS : MODBUS_MAX_REGISTERS;
  const out: ModbusRequest[] = [];
  let current: { start: number; end: number; identifiers: string[] } | undefined;
  for (const s of spans) {
    if (current && s.start - current.end <= gapMax && Math.max(current.end, s.end) - current.start <= limit) {
      current.end = Math.max(current.end, s.end);
      current.identifiers.push(s.identifier);
      continue;
    }
    if (current) out.push({ function: fn, start: current.start, count: current.end - current.start, identifiers: current.identifiers });
    current = { start: s.start, end: s.end, identifiers: [s.identifier] };
  }
  if (current) out.push({ function: fn, start: current.start, count: current.end - current.start, identifiers: current.identifiers });
  return out;
}

export function planRequests(points: readonly PlanPoint[], gapMax: number, split: ReadonlySet<string> = new Set()): ModbusRequest[] {
  const byFunction = new Map<number, Span[]>();
  for (const p of points) {
    const fn = readFunctionOf(p.descriptor);
    if (fn === undefined) continue;
    const start = p.descriptor.registerAddress;
    const span = { identifier: p.identifier, start, end: Math.min(start + pointSpan(p.descriptor), 0x10000) };
    byFunction.set(fn, [...(byFunction.get(fn) ?? []), span]);
  }
  const out: ModbusRequest[] = [];
  for (const fn of [...byFunction.keys()].sort((a, b) => a - b)) {
    const spans = byFunction.get(fn)!.sort((a, b) => a.start - b.start || a.end - b.end);
    for (const request of join(fn, spans, gapMax)) {
      if (!split.has(requestKey(request))) {
        out.push(request);
        continue;
      }
      const members = spans.filter((s) => request.identifiers.includes(s.identifier));
      out.push(...join(fn, members, 0));
    }
  }
  return out;
}
