/**
 * What telemetry and event ingestion ask of the published thing model: does a value fit its
 * property, which event does an identifier name. The thing-model service hands these out
 * (`ThingModelService.deviceData`), so ingestion depends on neither the model's shapes nor its checks.
 * A product without a published model checks nothing and flags nothing.
 */
import type { EventType } from '../../contract/event-record.ts';
import type { TelemetryValue } from '../../contract/telemetry.ts';
import type { PublishedModel } from './published-model.ts';
import { checkPropertyValue, matchEvent, reportedValue } from './thing-model-check.ts';

export interface EventMatch {
  /** The model event's name; null when the identifier names no published event. */
  eventName: string | null;
  /** The model event's type; null when unmatched. */
  eventType: EventType | null;
  /** Why the event did not match (unknown identifier, wrong parameter); null when it did. */
  flag: string | null;
}

/** A reported value on its way to storage: checking may convert its value and set its flag. */
export interface ReportedValue {
  key: string;
  value: TelemetryValue;
  flag?: string;
}

export interface ModelChecks {
  /**
   * Puts `row.value` in the type of property `key` of the product's published model where
   * server/contract/rules/property-value.ts converts it, and sets `row.flag` to why it does not fit
   * (left unset when it does or no model is published).
   */
  property(deviceProfileId: string, row: ReportedValue): void;
  /**
   * As `property` for a client attribute, but a key that names no property is not flagged: devices
   * report attributes (firmware version, serial number) that no model describes, which is not a
   * fault, whereas an unknown telemetry key is.
   */
  attribute(deviceProfileId: string, row: ReportedValue): void;
  event(deviceProfileId: string, identifier: string, params: Record<string, unknown>): EventMatch;
}

/** Why attribute `key` does not fit its property of `model`; null when it does or names no property. */
function attributeFlag(model: PublishedModel, key: string, value: TelemetryValue): string | null {
  const result = checkPropertyValue(model, key, value);
  return result.ok || result.code === 'unknownIdentifier' ? null : result.reason;
}

const unmatched: EventMatch = { eventName: null, eventType: null, flag: null };

export function deviceDataChecks(getPublished: (deviceProfileId: string) => PublishedModel | null): ModelChecks {
  return {
    property(deviceProfileId, row) {
      const model = getPublished(deviceProfileId);
      if (!model) return;
      row.value = reportedValue(model, row.key, row.value) as TelemetryValue;
      const result = checkPropertyValue(model, row.key, row.value);
      if (!result.ok) row.flag = result.reason;
    },
    attribute(deviceProfileId, row) {
      const model = getPublished(deviceProfileId);
      if (!model) return;
      row.value = reportedValue(model, row.key, row.value) as TelemetryValue;
      const flag = attributeFlag(model, row.key, row.value);
      if (flag) row.flag = flag;
    },
    event(deviceProfileId, identifier, params) {
      const model = getPublished(deviceProfileId);
      if (!model) return unmatched;
      const result = matchEvent(model, identifier, params);
      if (result.ok) return { eventName: result.event.functionName, eventType: result.event.eventType, flag: null };
      // A known event with wrong parameters keeps its name and type; an unknown one has neither.
      return { eventName: result.event?.functionName ?? null, eventType: result.event?.eventType ?? null, flag: result.reason };
    },
  };
}
