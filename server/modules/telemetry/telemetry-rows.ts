/** The shapes telemetry rows have between ingestion, the writer, the history worker and the SQL. */
import type { TelemetryValue } from '../../contract/telemetry.ts';

export const CLIENT_SCOPE = 'CLIENT_SCOPE';
export const SHARED_SCOPE = 'SHARED_SCOPE';

/** One value to store. */
export interface TelemetryRow {
  ts: number;
  key: string;
  value: TelemetryValue;
  flag?: string;
}

export interface StoredPoint {
  ts: number;
  value: TelemetryValue;
  flag: string | null;
}

export interface LatestPoint extends StoredPoint {
  key: string;
}

export interface AttributeRow {
  key: string;
  value: TelemetryValue;
  lastUpdateTs: number;
  /** Why the value does not fit its property of the published model (attribute-checks.ts). */
  flag?: string;
}

export interface EventRecordRow {
  id: string;
  deviceId: string;
  ts: number;
  identifier: string;
  eventName: string | null;
  eventType: string;
  params: Record<string, unknown>;
  flag: string | null;
  createdTime: number;
}

/** An event record in storage order (`seq`, migration 0040), as the cloud link sends it; `params` is the stored JSON text. */
export interface SequencedEvent {
  seq: number;
  deviceId: string;
  ts: number;
  identifier: string;
  params: string;
}

/** Filters of the event record list (all optional, combined with AND; times inclusive). */
export interface EventFilter {
  identifier?: string;
  eventType?: string;
  startTime?: number;
  endTime?: number;
}


/** A history value as ts_history holds it (stored-value.ts), also what a history block holds per value. */
export interface HistoryRow {
  ts: number;
  valueType: number;
  numValue: number | null;
  textValue: string | null;
  flag: string | null;
}

/** A `ts_history` row as SQLite answers it (history-reader.ts, history-compactor.ts). */
export interface HistoryRowRecord {
  ts: number;
  value_type: number;
  num_value: number | null;
  text_value: string | null;
  flag: string | null;
}

export function historyRowOf(r: HistoryRowRecord): HistoryRow {
  return { ts: r.ts, valueType: r.value_type, numValue: r.num_value, textValue: r.text_value, flag: r.flag };
}
