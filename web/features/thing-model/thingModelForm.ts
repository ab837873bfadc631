/**
 * The thing-model item drawer's values and their mapping to and from the contract
 * (server/contract/thing-model.ts): what the form edits is flat where the wire is keyed by data type
 * (BOOL specs `{ "0", "1" }` become two named fields, ENUM and STRUCT specs become lists), so Arco's
 * dotted field paths stay unambiguous. Pure, so the drawer and tests share it.
 */
import type {
  AccessMode,
  DataType,
  FunctionType,
  ModbusDataType,
  ModbusDescriptor,
  ModbusDescriptorInput,
  ModbusOperationType,
  ThingModelDataTypeName,
  ThingModelEventType,
  ThingModelItem,
  ThingModelItemBody,
  ThingModelParam,
} from '../../../server/contract/thing-model.ts';
import type { CommandCallType } from '../../../server/contract/command.ts';
import { isBitOperation } from '../../../server/contract/rules/modbus.ts';

export interface EnumRowValues {
  value?: number | null;
  description?: string;
}

/** One data type as the form holds it: the fields of every type, only those of `type` are sent. */
export interface DataTypeValues {
  type: ThingModelDataTypeName;
  min?: number | null;
  max?: number | null;
  step?: number | null;
  unit?: string;
  unitName?: string;
  length?: number | null;
  boolClose?: string;
  boolOpen?: string;
  enumItems?: EnumRowValues[];
  /** STRUCT members (never STRUCT themselves). */
  members?: ParamValues[];
}

/** A service input or output parameter, an event output parameter, or a STRUCT member. */
export interface ParamValues {
  functionName?: string;
  identifier?: string;
  dataType: DataTypeValues;
}

export type BitMode = 'position' | 'mask';

export interface ValueMappingRow {
  raw?: string;
  text?: string;
}

/** The Modbus extension descriptor; addresses and masks are the hex digits after `0x`. */
export interface ModbusValues {
  operationType: ModbusOperationType;
  registerAddress?: string;
  originalDataType: ModbusDataType;
  scaleFactor?: number | null;
  bitMode: BitMode;
  bitPosition?: number | null;
  bitMask?: string;
  registerCount?: number | null;
  valueMapping: ValueMappingRow[];
}

export interface ItemValues {
  functionType: FunctionType;
  functionName: string;
  identifier: string;
  accessMode: AccessMode;
  callType: CommandCallType;
  eventType: ThingModelEventType;
  /** properties */
  dataType: DataTypeValues;
  /** services */
  inputData: ParamValues[];
  /** services and events */
  outputData: ParamValues[];
  /** properties of Modbus products: the descriptor is optional. */
  modbusEnabled: boolean;
  modbus: ModbusValues;
}

export function emptyDataType(type: ThingModelDataTypeName = 'INT'): DataTypeValues {
  return { type, enumItems: type === 'ENUM' ? [{}] : [], members: type === 'STRUCT' ? [emptyParam()] : [] };
}

export function emptyParam(): ParamValues {
  return { functionName: '', identifier: '', dataType: emptyDataType('INT') };
}

export function emptyModbus(): ModbusValues {
  return {
    operationType: 'HOLDING_REGISTER_READ',
    registerAddress: '0',
    originalDataType: 'INT16_AB',
    scaleFactor: 1,
    bitMode: 'position',
    valueMapping: [],
  };
}

export function emptyItem(functionType: FunctionType = 'properties'): ItemValues {
  return {
    functionType,
    functionName: '',
    identifier: '',
    accessMode: 'r',
    callType: 'ASYNC',
    eventType: 'INFO',
    dataType: emptyDataType('INT'),
    inputData: [],
    outputData: [],
    modbusEnabled: false,
    modbus: emptyModbus(),
  };
}

// ---- contract → form ------------------------------------------------------------------------

export function dataTypeValues(dataType: DataType | undefined): DataTypeValues {
  if (!dataType) return emptyDataType();
  const base = emptyDataType(dataType.type);
  switch (dataType.type) {
    case 'INT':
    case 'DOUBLE':
      return { ...base, ...dataType.specs };
    case 'TEXT':
      return { ...base, length: dataType.specs.length };
    case 'BOOL':
      return { ...base, boolClose: dataType.specs['0'], boolOpen: dataType.specs['1'] };
    case 'ENUM':
      return { ...base, enumItems: dataType.specs.map((e) => ({ value: e.value, description: e.description })) };
    case 'STRUCT':
      return { ...base, members: dataType.specs.map((m) => paramValues(m)) };
  }
}

export function paramValues(param: ThingModelParam): ParamValues {
  return { functionName: param.functionName, identifier: param.identifier, dataType: dataTypeValues(param.dataType) };
}

/** `0x1A2B` style digits of a 16-bit word (upper case, at least one digit). */
export function hexDigits(n: number): string {
  return n.toString(16).toUpperCase();
}

export function modbusValues(desc: ModbusDescriptor | null): ModbusValues {
  if (!desc) return emptyModbus();
  return {
    operationType: desc.operationType,
    registerAddress: hexDigits(desc.registerAddress),
    originalDataType: desc.originalDataType,
    scaleFactor: desc.scaleFactor,
    bitMode: desc.bitMask !== undefined ? 'mask' : 'position',
    bitPosition: desc.bitPosition ?? null,
    bitMask: desc.bitMask !== undefined ? hexDigits(desc.bitMask) : '',
    registerCount: desc.registerCount ?? null,
    valueMapping: Object.entries(desc.valueMapping ?? {}).map(([raw, text]) => ({ raw, text })),
  };
}

export function itemValues(item: ThingModelItem): ItemValues {
  const empty = emptyItem(item.functionType);
  return {
    ...empty,
    functionName: item.functionName,
    identifier: item.identifier,
    accessMode: item.accessMode ?? empty.accessMode,
    callType: item.callType ?? empty.callType,
    eventType: item.eventType ?? empty.eventType,
    dataType: dataTypeValues(item.functionJson.dataType),
    inputData: (item.functionJson.inputData ?? []).map(paramValues),
    outputData: (item.functionJson.outputData ?? []).map(paramValues),
    modbusEnabled: item.extensionDesc !== null,
    modbus: modbusValues(item.extensionDesc),
  };
}

// ---- form → contract ------------------------------------------------------------------------

function blank(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}

function trimmed(value: string | undefined): string {
  return (value ?? '').trim();
}

/**
 * The wire data type. Empty inputs are left out or sent empty, so the server names the field that
 * is missing rather than a shape error.
 */
export function dataTypeBody(values: DataTypeValues): DataType {
  switch (values.type) {
    case 'INT':
    case 'DOUBLE': {
      const specs: Record<string, unknown> = { min: values.min ?? '', max: values.max ?? '' };
      if (!blank(values.step)) specs.step = values.step;
      if (!blank(values.unit)) specs.unit = trimmed(values.unit);
      if (!blank(values.unitName)) specs.unitName = trimmed(values.unitName);
      return { type: values.type, specs } as DataType;
    }
    case 'TEXT':
      return { type: 'TEXT', specs: { length: values.length ?? '' } } as DataType;
    case 'BOOL':
      return { type: 'BOOL', specs: { '0': trimmed(values.boolClose), '1': trimmed(values.boolOpen) } };
    case 'ENUM':
      return {
        type: 'ENUM',
        specs: (values.enumItems ?? []).map((e) => ({ value: e.value ?? '', description: trimmed(e.description) })),
      } as DataType;
    case 'STRUCT':
      return { type: 'STRUCT', specs: (values.members ?? []).map(paramBody) } as DataType;
  }
}

export function paramBody(values: ParamValues): ThingModelParam {
  return { identifier: trimmed(values.identifier), functionName: trimmed(values.functionName), dataType: dataTypeBody(values.dataType) };
}

/** The `0x…` text sent for a register address or bit mask the form holds as hex digits. */
export function hexWordOf(digits: unknown): string {
  return `0x${typeof digits === 'string' ? digits.trim() : ''}`;
}

export function modbusBody(values: ModbusValues): ModbusDescriptorInput {
  const bits = values.originalDataType === 'BITS';
  const body: ModbusDescriptorInput = {
    operationType: values.operationType,
    registerAddress: hexWordOf(values.registerAddress),
    originalDataType: values.originalDataType,
  };
  if (!blank(values.scaleFactor)) body.scaleFactor = values.scaleFactor!;
  if (bits && values.bitMode === 'position' && !blank(values.bitPosition)) body.bitPosition = values.bitPosition!;
  if (bits && values.bitMode === 'mask' && !blank(values.bitMask)) body.bitMask = hexWordOf(values.bitMask);
  if (!isBitOperation(values.operationType) && !blank(values.registerCount)) body.registerCount = values.registerCount!;
  // An empty Form.List is left out of the submitted values when its rows were never touched.
  const rows = (values.valueMapping ?? []).filter((r) => !blank(r.raw) || !blank(r.text));
  if (rows.length) body.valueMapping = Object.fromEntries(rows.map((r) => [trimmed(r.raw), trimmed(r.text)]));
  return body;
}

/**
 * The create body (an update adds the id). `modbusProduct`: the product takes extension
 * descriptors (TCP with MODBUS_RTU); others never send one.
 */
export function itemBody(values: ItemValues, deviceProfileId: string, modbusProduct: boolean): ThingModelItemBody {
  const base = {
    deviceProfileId,
    functionType: values.functionType,
    functionName: trimmed(values.functionName),
    identifier: trimmed(values.identifier),
  };
  switch (values.functionType) {
    case 'properties':
      return {
        ...base,
        accessMode: values.accessMode,
        functionJson: { dataType: dataTypeBody(values.dataType) },
        ...(modbusProduct ? { extensionDesc: values.modbusEnabled ? modbusBody(values.modbus) : null } : {}),
      };
    case 'services':
      return {
        ...base,
        callType: values.callType,
        functionJson: { inputData: (values.inputData ?? []).map(paramBody), outputData: (values.outputData ?? []).map(paramBody) },
      };
    case 'events':
      return { ...base, eventType: values.eventType, functionJson: { outputData: (values.outputData ?? []).map(paramBody) } };
  }
}

// ---- server field paths → form fields ---------------------------------------------------------

type Path = readonly string[];

function dataTypeField(prefix: string, values: DataTypeValues | undefined, rest: Path): string {
  const [head, key, ...tail] = rest;
  const type = values?.type;
  if (head !== 'specs') return `${prefix}.type`;
  if (key === undefined) {
    if (type === 'ENUM') return `${prefix}.enumItems`;
    if (type === 'STRUCT') return `${prefix}.members`;
    return `${prefix}.type`;
  }
  switch (type) {
    case 'BOOL':
      return `${prefix}.${key === '0' ? 'boolClose' : 'boolOpen'}`;
    case 'ENUM':
      return `${prefix}.enumItems[${key}].${tail[0] === 'description' ? 'description' : 'value'}`;
    case 'STRUCT':
      return paramField(`${prefix}.members[${key}]`, values?.members?.[Number(key)], tail);
    default:
      return `${prefix}.${key}`;
  }
}

function paramField(prefix: string, values: ParamValues | undefined, rest: Path): string {
  const [head, ...tail] = rest;
  if (head === 'functionName' || head === 'identifier') return `${prefix}.${head}`;
  if (head === 'dataType') return dataTypeField(`${prefix}.dataType`, values?.dataType, tail);
  return `${prefix}.identifier`;
}

const modbusFields: Record<string, string> = {
  operationType: 'modbus.operationType',
  registerAddress: 'modbus.registerAddress',
  originalDataType: 'modbus.originalDataType',
  scaleFactor: 'modbus.scaleFactor',
  bitMask: 'modbus.bitMask',
  registerCount: 'modbus.registerCount',
};

function modbusField(values: Partial<ModbusValues> | undefined, rest: Path): string {
  const [head, key] = rest;
  if (head === undefined) return 'modbusEnabled';
  if (head === 'bitPosition') return values?.bitMode === 'mask' ? 'modbus.bitMask' : 'modbus.bitPosition';
  if (head === 'valueMapping') {
    const row = key === undefined ? -1 : (values?.valueMapping ?? []).findIndex((r) => trimmed(r?.raw) === key);
    return row < 0 ? 'modbus.valueMapping' : `modbus.valueMapping[${row}].raw`;
  }
  return modbusFields[head] ?? 'modbusEnabled';
}

/**
 * The form field a server detail names (`body.functionJson.dataType.specs.max` →
 * `dataType.max`), or null when the form has no such field. `values` tells how to read
 * type-dependent paths (a BOOL's `specs.0` is a name, an ENUM's an item).
 */
export function formFieldOf(serverField: string, values: Partial<ItemValues>): string | null {
  const path = serverField.replace(/^body\.?/, '').split('.').filter(Boolean);
  const [head, sub, index, ...rest] = path;
  switch (head) {
    case 'functionName':
    case 'identifier':
    case 'accessMode':
    case 'callType':
    case 'eventType':
      return head;
    case 'extensionDesc':
      return modbusField(values.modbus, path.slice(1));
    case 'functionJson':
      if (sub === 'dataType') return dataTypeField('dataType', values.dataType, path.slice(2));
      if (sub === 'inputData' || sub === 'outputData') {
        if (index === undefined) return sub;
        return paramField(`${sub}[${index}]`, values[sub]?.[Number(index)], rest);
      }
      return null;
    default:
      return null;
  }
}
