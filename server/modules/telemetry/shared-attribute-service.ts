/**
 * Device attributes by scope (server/contract/shared-attributes.ts): shared attributes users set
 * and delete, the REST reads of both stored scopes, and what a device's attribute request answers.
 * Every change of a shared attribute is announced (`attributes.updated` / `attributes.deleted`):
 * the transport pushes it to the device, the live websocket to its subscribers.
 */
import type { AttributesAnswer } from '../../contract/device-api.ts';
import type { StoredAttributeScope } from '../../contract/shared-attributes.ts';
import type { AttributeValue } from '../../contract/telemetry.ts';
import { transaction, type Db } from '../../db/sqlite.ts';
import type { Announce } from '../../lib/event-bus.ts';
import { violationError } from '../../lib/field-errors.ts';
import type { DeviceService } from '../device/device-service.ts';
import { attributeValues } from '../../lib/device-payload.ts';
import { fromRestBody } from './rest-payload.ts';
import type { TelemetryRepository } from './telemetry-repository.ts';
import { CLIENT_SCOPE, SHARED_SCOPE, type AttributeRow } from './telemetry-rows.ts';

export interface SharedAttributeDeps {
  db: Db;
  rows: TelemetryRepository;
  devices: Pick<DeviceService, 'get'>;
  announce: Announce;
}

/**
 * The keys a device asks for on one side of an attribute request: null when it did not name the
 * side, else the names (possibly none).
 */
export type RequestedKeys = string[] | null;

/** A refused body as the REST caller sees it: the device API's reason, 413 when too large. */

function asRecord(rows: readonly AttributeRow[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const r of rows) out[r.key] = r.value;
  return out;
}

export class SharedAttributeService {
  constructor(private readonly deps: SharedAttributeDeps) {}

  /**
   * Sets shared attributes from `{ key: value }`: checked by the rules device messages follow, since
   * the device receives exactly this object; only these keys are announced.
   */
  save(deviceId: string, body: unknown): void {
    this.deps.devices.get(deviceId);
    const rows: AttributeRow[] = fromRestBody(body, attributeValues).map((v) => ({ key: v.key, value: v.value, lastUpdateTs: v.ts }));
    transaction(this.deps.db, () => this.deps.rows.upsertAttributes(deviceId, SHARED_SCOPE, rows));
    this.deps.announce('attributes.updated', { deviceId, scope: SHARED_SCOPE, values: rows });
  }

  /** Deletes shared attributes; the device hears of the keys that existed. */
  delete(deviceId: string, keys: string[] | null): void {
    this.deps.devices.get(deviceId);
    if (!keys) throw violationError([{ field: 'keys', key: 'error.telemetry.keysRequired' }], 'querystring');
    const existing = this.deps.rows.attributes(deviceId, SHARED_SCOPE, keys).map((a) => a.key);
    if (!existing.length) return;
    this.deps.rows.deleteAttributes(deviceId, SHARED_SCOPE, existing);
    this.deps.announce('attributes.deleted', { deviceId, scope: SHARED_SCOPE, keys: existing });
  }

  /** `[{ key, value, lastUpdateTs }]` of one scope, or of both (client first) when `scope` is null. */
  values(deviceId: string, scope: StoredAttributeScope | null, keys: string[] | null): AttributeValue[] {
    this.deps.devices.get(deviceId);
    const scopes = scope ? [scope] : [CLIENT_SCOPE, SHARED_SCOPE];
    return scopes.flatMap((s) => this.deps.rows.attributes(deviceId, s, keys));
  }

  keys(deviceId: string, scope: StoredAttributeScope | null): string[] {
    return this.values(deviceId, scope, null).map((a) => a.key);
  }

  /** `{ key: value }` of the device's shared attributes (all when `keys` is null). */
  shared(deviceId: string, keys: readonly string[] | null): Record<string, unknown> {
    return asRecord(this.deps.rows.attributes(deviceId, SHARED_SCOPE, keys));
  }

  /**
   * A device's attribute request, filtered as ThingsBoard's device actor does: neither side named
   * answers every client and shared attribute; one side named answers only that side; both named,
   * each filtered. A side with nothing to answer is left out of the answer (ThingsBoard's JSON).
   */
  request(deviceId: string, clientKeys: RequestedKeys, sharedKeys: RequestedKeys): AttributesAnswer {
    const all = clientKeys === null && sharedKeys === null;
    const client = all || clientKeys !== null ? this.side(deviceId, CLIENT_SCOPE, clientKeys) : [];
    const shared = all || sharedKeys !== null ? this.side(deviceId, SHARED_SCOPE, sharedKeys) : [];
    const answer: AttributesAnswer = {};
    if (client.length) answer.client = asRecord(client);
    if (shared.length) answer.shared = asRecord(shared);
    return answer;
  }

  /** One side of a request as rows (a gateway's answer needs their count and order). */
  side(deviceId: string, scope: typeof CLIENT_SCOPE | typeof SHARED_SCOPE, keys: RequestedKeys): AttributeRow[] {
    if (keys !== null && keys.length === 0) return [];
    return this.deps.rows.attributes(deviceId, scope, keys);
  }
}
