/**
 * The TSL document of server/contract/thing-model.ts: items grouped by function type without ids,
 * product, status or times (export), and the entries of an import file with their place in it.
 */
import { functionTypes, type FunctionType, type ThingModelTsl, type TslImportBody } from '../../contract/thing-model.ts';
import type { StoredItem } from './thing-model-repository.ts';

type TslGroups = Pick<ThingModelTsl, 'properties' | 'services' | 'events'>;

export function tslGroups(items: readonly StoredItem[]): TslGroups {
  const groups: TslGroups = { properties: [], services: [], events: [] };
  for (const item of items) {
    const { functionName, identifier, functionJson } = item;
    if (item.functionType === 'properties') {
      groups.properties.push({
        functionName,
        identifier,
        accessMode: item.accessMode!,
        functionJson: { dataType: functionJson.dataType! },
        ...(item.extensionDesc ? { extensionDesc: item.extensionDesc } : {}),
      });
    } else if (item.functionType === 'services') {
      groups.services.push({
        functionName,
        identifier,
        callType: item.callType!,
        functionJson: { inputData: functionJson.inputData ?? [], outputData: functionJson.outputData ?? [] },
      });
    } else {
      groups.events.push({ functionName, identifier, eventType: item.eventType!, functionJson: { outputData: functionJson.outputData ?? [] } });
    }
  }
  return groups;
}

export interface TslEntry {
  functionType: FunctionType;
  /** Where the entry is in the file, e.g. `properties.2`. */
  path: string;
  raw: unknown;
}

/** Every entry of an import file, group by group in file order. */
export function tslEntries(body: TslImportBody): TslEntry[] {
  return functionTypes.flatMap((functionType) =>
    (body[functionType] ?? []).map((raw, i) => ({ functionType, path: `${functionType}.${i}`, raw })),
  );
}
