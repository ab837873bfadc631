/**
 * What telemetry and event ingestion ask of the published thing model: does a value fit its
 * property, which event does an identifier name. The one place that speaks to the thing-model
 * module (its cached `getPublished` and pure checks), so ingestion does not depend on its shapes.
 * A product without a published model checks nothing and flags nothing.
 */
import type { EventType } from '../../contract/event-record.ts';
import type { TelemetryValue } from '../../contract/telemetry.ts';
import { checkPropertyValue, matchEvent } from '../thing-model/thing-model-check.ts';
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

export interface ModelChecks {
  /** Why `value` does not fit property `key` of the product's published model; null when it does or no model is published. */
  property(deviceProfileId: string, key: string, value: TelemetryValue): string | null;
  /** As `property` for a client attribute, but a key that names no property is not flagged (attribute-checks.ts). */
  attribute(deviceProfileId: string, key: string, value: TelemetryValue): string | null;
  event(deviceProfileId: string, identifier: string, params: Record<string, unknown>): EventMatch;
}

const unmatched: EventMatch = { eventName: null, eventType: null, flag: null };

export function thingModelChecks(models: Pick<ThingModelService, 'getPublished'>): ModelChecks {
  return {
    property(deviceProfileId, key, value) {
      const model = models.getPublished(deviceProfileId);
      if (!model) return null;
      const result = checkPropertyValue(model, key, value);
      return result.ok ? null : result.reason;
    },
    attribute(deviceProfileId, key, value) {
      const model = models.getPublished(deviceProfileId);
      return model ? attributeFlag(model, key, value) : null;
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
