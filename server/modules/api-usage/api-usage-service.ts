/**
 * The gateway's API usage state, ThingsBoard's per-tenant `apiUsageState` entity: whether device
 * traffic and storage are served. Here the licence decides: a valid one serves both (WARNING once
 * the licensed device count is reached: devices keep working, new ones are refused), a missing or
 * expired one neither.
 */
import { createHash } from 'node:crypto';
import type { EntityData, EntityDataPage, EntityDataQuery, EntityKey, TsValue } from '../../contract/entity-query.ts';
import type { LicenseService } from '../license/license-service.ts';
import type { PlatformService } from '../platform/platform-service.ts';

type ApiState = 'ENABLED' | 'WARNING' | 'DISABLED';

const EMPTY: TsValue = { ts: 0, value: '' };

interface EntityFields {
  name: string;
  label: string;
  additionalInfo: string;
  createdTime: string;
}

/** A UUID-shaped id that stays the same for a gateway (derived from its serial number). */
function stableId(seed: string): string {
  const hex = createHash('sha256').update(`api-usage-state:${seed}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

export class ApiUsageService {
  constructor(private readonly deps: { license: LicenseService; platform: PlatformService }) {}

  find(query: EntityDataQuery, now = Date.now()): EntityDataPage {
    const { page, textSearch } = query.pageLink;
    const fields = this.entityFields();
    const search = textSearch?.trim().toLowerCase();
    const matches = !search || fields.name.toLowerCase().includes(search);
    const total = matches ? 1 : 0;
    const data = matches && page === 0 ? [this.entity(query, fields, now)] : [];
    return { data, totalPages: total, totalElements: total, hasNext: false };
  }

  private entityFields(): EntityFields {
    const { license, platform } = this.deps;
    const info = license.info();
    return {
      name: platform.get().name ?? license.deviceSn,
      label: license.deviceSn,
      additionalInfo: '',
      createdTime: String(info.license?.issuedAt ?? 0),
    };
  }

  private latestValues(now: number): Record<string, TsValue> {
    const { license } = this.deps;
    const info = license.info();
    const limit = license.deviceLimit();
    const valid = info.status === 'VALID';
    const transport: ApiState = !valid ? 'DISABLED' : limit !== null && info.devicesUsed >= limit ? 'WARNING' : 'ENABLED';
    const value = (v: string): TsValue => ({ ts: now, value: v });
    return {
      transportApiState: value(transport),
      dbApiState: value(valid ? 'ENABLED' : 'DISABLED'),
      devicesUsed: value(String(info.devicesUsed)),
      maxDevices: value(String(limit ?? 0)),
    };
  }

  private entity(query: EntityDataQuery, fields: EntityFields, now: number): EntityData {
    const latest: EntityData['latest'] = {};
    const put = (key: EntityKey, value: TsValue | undefined): void => {
      (latest[key.type] ??= {})[key.key] = value ?? EMPTY;
    };
    for (const key of query.entityFields ?? []) {
      const value = key.type === 'ENTITY_FIELD' ? (fields as unknown as Record<string, string | undefined>)[key.key] : undefined;
      put(key, value === undefined ? undefined : { ts: now, value });
    }
    const series = query.latestValues?.length ? this.latestValues(now) : {};
    for (const key of query.latestValues ?? []) put(key, key.type === 'TIME_SERIES' ? series[key.key] : undefined);
    return {
      entityId: { entityType: 'API_USAGE_STATE', id: stableId(this.deps.license.deviceSn) },
      latest,
      timeseries: {},
    };
  }
}
