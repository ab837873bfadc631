/**
 * The published model of a product as other modules use it (telemetry checks, commands, events):
 * the latest published version's items by function type. Draft edits never show here.
 */
import type { CommandCallType } from '../../contract/command.ts';
import type {
  AccessMode,
  DataType,
  ModbusDescriptor,
  ThingModelEventType,
  ThingModelParam,
} from '../../contract/thing-model.ts';
import type { StoredItem } from './thing-model-repository.ts';

export interface PublishedProperty {
  identifier: string;
  functionName: string;
  accessMode: AccessMode;
  dataType: DataType;
  extensionDesc: ModbusDescriptor | null;
}

export interface PublishedService {
  identifier: string;
  functionName: string;
  callType: CommandCallType;
  inputData: readonly ThingModelParam[];
  outputData: readonly ThingModelParam[];
}

export interface PublishedEvent {
  identifier: string;
  functionName: string;
  eventType: ThingModelEventType;
  outputData: readonly ThingModelParam[];
}

export interface PublishedModel {
  deviceProfileId: string;
  /** 1, 2, … */
  version: number;
  publishedTime: number;
  properties: readonly PublishedProperty[];
  services: readonly PublishedService[];
  events: readonly PublishedEvent[];
}

/** The model of a version's items (stored items passed every rule, so their fields are set). */
export function publishedModelOf(deviceProfileId: string, version: number, publishedTime: number, items: readonly StoredItem[]): PublishedModel {
  const model = { deviceProfileId, version, publishedTime, properties: [] as PublishedProperty[], services: [] as PublishedService[], events: [] as PublishedEvent[] };
  for (const item of items) {
    const { identifier, functionName, functionJson } = item;
    if (item.functionType === 'properties') {
      model.properties.push({ identifier, functionName, accessMode: item.accessMode!, dataType: functionJson.dataType!, extensionDesc: item.extensionDesc });
    } else if (item.functionType === 'services') {
      model.services.push({ identifier, functionName, callType: item.callType!, inputData: functionJson.inputData ?? [], outputData: functionJson.outputData ?? [] });
    } else {
      model.events.push({ identifier, functionName, eventType: item.eventType!, outputData: functionJson.outputData ?? [] });
    }
  }
  return model;
}
