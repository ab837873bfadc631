/**
 * The point table of a product (server/contract/modbus.ts, "Point table"): its Modbus properties
 * as rows of MODBUS_POINT_COLUMNS, and rows back into thing-model item bodies. New properties get
 * specs that fit their original data type (the full range of the raw type; two names for BOOL;
 * the register bytes for TEXT); existing ones keep theirs when the data type stays.
 */
import type { ModbusPointColumn } from '../../contract/modbus.ts';
import { modbusPointColumns } from '../../contract/modbus.ts';
import {
  modbusDataTypes,
  modbusOperationTypes,
  type DataType,
  type ModbusDataType,
  type ModbusDescriptor,
  type ModbusDescriptorInput,
  type ModbusOperationType,
  type ThingModelItemBody,
} from '../../contract/thing-model.ts';
import type { Static } from 'typebox';
import type { TslPropertySchema } from '../../contract/thing-model.ts';

type TslProperty = Static<typeof TslPropertySchema>;
import { INT32_MAX, INT32_MIN } from '../../contract/validation.ts';
import { registerWidth } from '../../contract/rules/modbus.ts';

const hex = (n: number) => `0x${n.toString(16).toUpperCase().padStart(4, '0')}`;

/** One exported row, cells in column order. */
export function pointRow(p: TslProperty & { extensionDesc: ModbusDescriptor }): string[] {
  const d = p.extensionDesc;
  const cells: Record<ModbusPointColumn, string> = {
    identifier: p.identifier,
    name: p.functionName,
    dataType: p.functionJson.dataType.type,
    registerAddress: hex(d.registerAddress),
    originalDataType: d.originalDataType,
    scaleFactor: String(d.scaleFactor),
    bit: d.bitPosition !== undefined ? String(d.bitPosition) : d.bitMask !== undefined ? hex(d.bitMask) : '',
    registerCount: d.registerCount !== undefined ? String(d.registerCount) : '',
    access: d.operationType,
  };
  return modbusPointColumns.map((c) => cells[c]);
}

const dataTypeNames = ['INT', 'DOUBLE', 'TEXT', 'BOOL', 'ENUM'] as const;

/** Specs a new property of `type` gets for raw values of `original`. */
function defaultDataType(type: (typeof dataTypeNames)[number], original: ModbusDataType, count: number | undefined): DataType | undefined {
  if (type === 'BOOL') return { type, specs: { '0': 'OFF', '1': 'ON' } };
  if (type === 'TEXT') return { type, specs: { length: Math.min(Math.max((count ?? 1) * 2, 1), 10_000) } };
  if (type === 'INT') {
    if (original.startsWith('INT16')) return { type, specs: { min: -32768, max: 32767 } };
    if (original.startsWith('UINT16') || original === 'BITS') return { type, specs: { min: 0, max: 65535 } };
    return { type, specs: { min: original.startsWith('UINT') ? 0 : INT32_MIN, max: INT32_MAX } };
  }
  if (type === 'DOUBLE') {
    const width = registerWidth(original);
    const bound = width === 1 ? 65535 : width === 2 ? 4294967295 : 1e15;
    return { type, specs: { min: -bound, max: bound } };
  }
  return undefined;
}

/** A spreadsheet cell as text: a leading ' (formula guard of our CSV export) and spaces dropped. */
function cell(row: readonly string[], column: ModbusPointColumn, index: ReadonlyMap<ModbusPointColumn, number>): string {
  const at = index.get(column);
  const text = at === undefined ? '' : (row[at] ?? '').trim();
  return text.startsWith("'") ? text.slice(1) : text;
}

export type RowProblem = { field: ModbusPointColumn; key: 'error.field.required' | 'error.modbus.pointRow' };

/**
 * The item body a row describes, or the columns that cannot be read. `existing` is the draft item
 * of that identifier, whose specs stay when the data type does not change.
 */
export function itemOfRow(
  deviceProfileId: string,
  row: readonly string[],
  index: ReadonlyMap<ModbusPointColumn, number>,
  existing: { dataType: DataType } | undefined,
): ThingModelItemBody | RowProblem[] {
  const problems: RowProblem[] = [];
  const text = (c: ModbusPointColumn) => cell(row, c, index);
  const required = (c: ModbusPointColumn) => {
    const v = text(c);
    if (!v) problems.push({ field: c, key: 'error.field.required' });
    return v;
  };
  const identifier = required('identifier');
  const name = required('name');
  const typeName = required('dataType').toUpperCase();
  const original = required('originalDataType').toUpperCase();
  const access = required('access').toUpperCase();
  const address = required('registerAddress');
  if (!(dataTypeNames as readonly string[]).includes(typeName)) problems.push({ field: 'dataType', key: 'error.modbus.pointRow' });
  if (!(modbusDataTypes as readonly string[]).includes(original)) problems.push({ field: 'originalDataType', key: 'error.modbus.pointRow' });
  if (!(modbusOperationTypes as readonly string[]).includes(access)) problems.push({ field: 'access', key: 'error.modbus.pointRow' });
  if (problems.length) return problems;

  const descriptor: ModbusDescriptorInput = {
    operationType: access as ModbusOperationType,
    registerAddress: /^\d+$/.test(address) ? Number(address) : address,
    originalDataType: original as ModbusDataType,
  };
  const scale = text('scaleFactor');
  if (scale) descriptor.scaleFactor = Number(scale);
  const bit = text('bit');
  if (bit) {
    if (/^0x/i.test(bit)) descriptor.bitMask = bit;
    else descriptor.bitPosition = Number(bit);
  }
  const count = text('registerCount');
  if (count) descriptor.registerCount = Number(count);

  const type = typeName as (typeof dataTypeNames)[number];
  const dataType = existing?.dataType.type === type ? existing.dataType : defaultDataType(type, descriptor.originalDataType, descriptor.registerCount);
  if (!dataType) return [{ field: 'dataType', key: 'error.modbus.pointRow' }];
  const readOnly = access.endsWith('_READ') && !access.endsWith('_READ_WRITE');
  return {
    deviceProfileId,
    functionType: 'properties',
    functionName: name,
    identifier,
    accessMode: readOnly ? 'r' : 'rw',
    functionJson: { dataType },
    extensionDesc: descriptor,
  };
}

/** Header cell → column, by the column names (any case, spaces and underscores ignored). */
export function columnIndex(header: readonly string[]): Map<ModbusPointColumn, number> {
  const norm = (s: string) => s.replace(/[\s_]/g, '').toLowerCase();
  const index = new Map<ModbusPointColumn, number>();
  header.forEach((h, i) => {
    const column = modbusPointColumns.find((c) => norm(c) === norm(h.replace(/^\uFEFF/, '')));
    if (column && !index.has(column)) index.set(column, i);
  });
  return index;
}
