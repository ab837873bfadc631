/**
 * What telemetry and event ingestion ask of the published thing model: does a value fit its
 * property, which event does an identifier name. The one place that speaks to the thing-model
 * module (its cached `getPublished` and pure checks), so ingestion does not depend on its shapes.
 * A product without a published model checks nothing and flags nothing.
 */
import type { EventType } from '../../contract/event-record.ts';
import type { TelemetryValue } from '../../contract/telemetry.ts';
import { checkPropertyValue, matchEvent, outOfRangeWords, reportedValue } from '../thing-model/thing-model-check.ts';
import type { ThingModelService } from '../thing-model/thing-model-service.ts';
import { attributeFlag } from './attribute-checks.ts';

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
  /** As `property` for a client attribute, but a key that names no property is not flagged (attribute-checks.ts). */
  attribute(deviceProfileId: string, row: ReportedValue): void;
  event(deviceProfileId: string, identifier: string, params: Record<string, unknown>): EventMatch;
}

/**
 * Whether a stored value's flag says it was out of its property's range (what history aggregates
 * leave out by default). Read from the check's own words, the one place that writes them.
 */
export function flaggedOutOfRange(flag: string | null): boolean {
  return flag !== null && (flag.includes(outOfRangeWords.below) || flag.includes(outOfRangeWords.above));
}

const unmatched: EventMatch = { eventName: null, eventType: null, flag: null };

export function thingModelChecks(models: Pick<ThingModelService, 'getPublished'>): ModelChecks {
  return {
    property(deviceProfileId, row) {
      const model = models.getPublished(deviceProfileId);
      if (!model) return;
      row.value = reportedValue(model, row.key, row.value) as TelemetryValue;
      const result = checkPropertyValue(model, row.key, row.value);
      if (!result.ok) row.flag = result.reason;
    },
    attribute(deviceProfileId, row) {
      const model = models.getPublished(deviceProfileId);
      if (!model) return;
      row.value = reportedValue(model, row.key, row.value) as TelemetryValue;
      const flag = attributeFlag(model, row.key, row.value);
      if (flag) row.flag = flag;
    },
    event(deviceProfileId, identifier, params) {
      const model = models.getPublished(deviceProfileId);
      if (!model) return unmatched;
      const result = matchEvent(model, identifier, params);
      if (result.ok) return { eventName: result.event.functionName, eventType: result.event.eventType, flag: null };
      // A known event with wrong parameters keeps its name and type; an unknown one has neither.
      return { eventName: result.event?.functionName ?? null, eventType: result.event?.eventType ?? null, flag: result.reason };
    },
  };
}
