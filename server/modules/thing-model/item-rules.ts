/**
 * One model item's rules beyond its schema outline (server/contract/thing-model.ts): fields by
 * function type, the data type and parameters, the reserved TCP identifier and the Modbus extension
 * descriptor (the rules a form checks as well are in server/contract/rules/). Pure: the service adds
 * what needs the database (identifier unique per product). Used for single creates and edits and for
 * every entry of a TSL import, so both refuse the same things.
 */
import { Compile } from 'typebox/compile';
import type { CommandCallType as CallType } from '../../contract/command.ts';
import type { TcpProtocolType, TransportType } from '../../contract/product.ts';
import { isObject } from '../../contract/rules/problem.ts';
import { reservedIdentifierProblem } from '../../contract/rules/thing-model.ts';
import {
  ModbusDescriptorInputSchema,
  ThingModelItemBodySchema,
  type AccessMode,
  type FunctionJson,
  type FunctionType,
  type ModbusDescriptor,
  type ThingModelEventType,
  type ThingModelItemBody,
} from '../../contract/thing-model.ts';
import type { Violation } from '../../lib/field-errors.ts';
import { Found, join, parseDataType, parseParams } from './data-type-rules.ts';
import { parseModbusDescriptor } from './modbus-rules.ts';

/** An item as stored, before it has an id. */
export interface ItemDraft {
  functionType: FunctionType;
  functionName: string;
  identifier: string;
  accessMode: AccessMode | null;
  eventType: ThingModelEventType | null;
  callType: CallType | null;
  functionJson: FunctionJson;
  extensionDesc: ModbusDescriptor | null;
}

/** What the rules need to know of the item's product. */
export interface ProductFacts {
  transportType: TransportType;
  tcpProtocolType: TcpProtocolType | null;
}

export type ItemCheck = { ok: true; draft: ItemDraft } | { ok: false; violations: Violation[] };

/** The outline as the functionJson schema lets it through; specs and parameters are still unchecked. */
interface FunctionJsonOutline {
  dataType?: { type: DataTypeName; specs?: unknown };
  inputData?: unknown[];
  outputData?: unknown[];
}
type DataTypeName = NonNullable<FunctionJson['dataType']>['type'];

/** Which optional fields each function type takes; any other one present is refused. */
const fieldsOf: Record<FunctionType, ReadonlySet<string>> = {
  properties: new Set(['accessMode', 'dataType', 'extensionDesc']),
  services: new Set(['callType', 'inputData', 'outputData']),
  events: new Set(['eventType', 'outputData']),
};
const requiredOf: Record<FunctionType, string> = { properties: 'accessMode', services: 'callType', events: 'eventType' };
const pathOf: Record<string, string> = {
  accessMode: 'accessMode',
  eventType: 'eventType',
  callType: 'callType',
  extensionDesc: 'extensionDesc',
  dataType: 'functionJson.dataType',
  inputData: 'functionJson.inputData',
  outputData: 'functionJson.outputData',
};

function present(value: unknown): boolean {
  return value !== undefined && value !== null && !(Array.isArray(value) && value.length === 0);
}

/** Checks `body`, whose outline the route's schema (or `checkItemOutline`) already accepted. */
export function checkItem(body: ThingModelItemBody, product: ProductFacts): ItemCheck {
  const found = new Found();
  const type = body.functionType;
  const outline = body.functionJson as unknown as FunctionJsonOutline;
  const given: Record<string, unknown> = {
    accessMode: body.accessMode,
    eventType: body.eventType,
    callType: body.callType,
    extensionDesc: body.extensionDesc,
    dataType: outline.dataType,
    inputData: outline.inputData,
    outputData: outline.outputData,
  };
  for (const [name, value] of Object.entries(given)) {
    if (!present(value) || fieldsOf[type].has(name)) continue;
    found.add(pathOf[name]!, name === 'extensionDesc' ? 'error.thingModel.modbus.propertiesOnly' : 'error.thingModel.notForFunctionType');
  }
  if (!present(given[requiredOf[type]])) found.add(requiredOf[type], 'error.field.required');

  found.check('identifier', reservedIdentifierProblem(body.identifier, product.transportType === 'TCP'));

  let functionJson: FunctionJson = {};
  if (type === 'properties') {
    if (!outline.dataType) found.add('functionJson.dataType', 'error.field.required');
    else {
      const dataType = parseDataType(outline.dataType, 'functionJson.dataType', found, true);
      if (dataType) functionJson = { dataType };
    }
  } else {
    const outputData = parseParams(outline.outputData, 'functionJson.outputData', found);
    if (type === 'services') {
      const inputData = parseParams(outline.inputData, 'functionJson.inputData', found);
      functionJson = { inputData: inputData ?? [], outputData: outputData ?? [] };
    } else functionJson = { outputData: outputData ?? [] };
  }

  let extensionDesc: ModbusDescriptor | null = null;
  if (body.extensionDesc && type === 'properties') {
    if (product.transportType !== 'TCP' || product.tcpProtocolType !== 'MODBUS_RTU') {
      found.add('extensionDesc', 'error.thingModel.modbus.notModbusProduct');
    } else {
      extensionDesc = parseModbusDescriptor(body.extensionDesc, body.accessMode ?? null, 'extensionDesc', found) ?? null;
    }
  }

  if (found.size) return { ok: false, violations: found.list };
  return {
    ok: true,
    draft: {
      functionType: type,
      functionName: body.functionName,
      identifier: body.identifier,
      accessMode: type === 'properties' ? (body.accessMode ?? null) : null,
      eventType: type === 'events' ? (body.eventType ?? null) : null,
      callType: type === 'services' ? (body.callType ?? null) : null,
      functionJson,
      extensionDesc,
    },
  };
}

const itemOutline = Compile(ThingModelItemBodySchema);
const descriptorOutline = Compile(ModbusDescriptorInputSchema);

/**
 * A TSL entry's outline, as the route's schema checks a body: unknown fields dropped (ajv's
 * removeAdditional does that for bodies), then every schema failure with its field under `path`.
 */
export function checkItemOutline(entry: unknown, path: string): { ok: true; body: ThingModelItemBody } | { ok: false; violations: Violation[] } {
  const found = new Found();
  if (!isObject(entry)) {
    found.add(path, 'error.thingModel.tsl.itemMalformed');
    return { ok: false, violations: found.list };
  }
  const cleaned = itemOutline.Clean(structuredClone(entry)) as Record<string, unknown>;
  // Clean does not reach inside the nullable descriptor.
  if (isObject(cleaned.extensionDesc)) cleaned.extensionDesc = descriptorOutline.Clean(cleaned.extensionDesc);
  if (itemOutline.Check(cleaned)) return { ok: true, body: cleaned };
  found.addSchema(path, itemOutline.Errors(cleaned));
  return { ok: false, violations: found.list };
}

/** Violations with their field placed under `path` (a TSL entry's place in the file). */
export function under(path: string, violations: readonly Violation[]): Violation[] {
  return violations.map((v) => ({ ...v, field: join(path, v.field) }));
}
