/**
 * What telemetry and event ingestion ask of the published thing model: does a value fit its
 * property, which event does an identifier name. The one place that speaks to the thing-model
 * module, so ingestion does not depend on its shapes.
 */
import type { EventType } from '../../contract/event-record.ts';
import type { TelemetryValue } from '../../contract/telemetry.ts';

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
  event(deviceProfileId: string, identifier: string, params: Record<string, unknown>): EventMatch;
}

/** For products without a published model: nothing to check against, nothing flagged. */
export const noModelChecks: ModelChecks = {
  property: () => null,
  event: () => ({ eventName: null, eventType: null, flag: null }),
};
