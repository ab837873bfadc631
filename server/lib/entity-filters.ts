/**
 * The devices an ENTITY_DATA / ENTITY_COUNT entity filter names (server/contract/realtime.ts):
 * listed ids as given, and ThingsBoard's `deviceType` and `entityName` filters matched the way
 * ThingsBoard's entity query matches them: product names (its device profiles) exactly, and device
 * names by a case-insensitive prefix, or as an ILIKE pattern (`%` any run, `_` one character) when
 * the filter starts or ends with `%`. The live commands of the telemetry and alarm modules share it.
 */
import type { Device } from '../contract/device.ts';
import { WS_MAX_FILTERED_ENTITIES, type EntityFilter } from '../contract/realtime.ts';
import type { ScopedDevices } from './device-scope.ts';

/** The page size the device list is read in (the list's maximum). */
const READ_PAGE = 100;

/** A device-name test as ThingsBoard's `ilike` of the filter; an empty filter matches every name. */
export function nameMatcher(filter: string | undefined): (name: string) => boolean {
  if (!filter) return () => true;
  if (!filter.startsWith('%') && !filter.endsWith('%')) {
    const prefix = filter.toLowerCase();
    return (name) => name.toLowerCase().startsWith(prefix);
  }
  // Escapes every regular-expression character first, then turns the two wildcards into theirs.
  const source = filter.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replaceAll('%', '.*').replaceAll('_', '.');
  const re = new RegExp(`^${source}$`, 'is');
  return (name) => re.test(name);
}

/** The test a `deviceType` or `entityName` filter puts to a device. */
function deviceMatcher(filter: Extract<EntityFilter, { type: 'deviceType' | 'entityName' }>): (d: Device) => boolean {
  if (filter.type === 'entityName') {
    const name = nameMatcher(filter.entityNameFilter);
    return (d) => name(d.name);
  }
  const products = new Set(filter.deviceTypes ?? (filter.deviceType === undefined ? [] : [filter.deviceType]));
  const name = nameMatcher(filter.deviceNameFilter);
  return (d) => products.has(d.productName) && name(d.name);
}

export interface FilterMatch {
  /** The first `max` matching device ids, oldest first. */
  ids: string[];
  /** How many devices match in all. */
  total: number;
}

/** Devices a `deviceType` or `entityName` filter matches, read page by page from the device list. */
export function matchDevices(
  devices: { page(query: { page: number; pageSize: number; sortField?: 'createdTime'; sortOrder?: 'ascend' }): { items: Device[]; total: number } },
  filter: Extract<EntityFilter, { type: 'deviceType' | 'entityName' }>,
  max: number,
): FilterMatch {
  const matches = deviceMatcher(filter);
  const ids: string[] = [];
  let total = 0;
  for (let page = 1; ; page += 1) {
    const { items } = devices.page({ page, pageSize: READ_PAGE, sortField: 'createdTime', sortOrder: 'ascend' });
    for (const d of items) {
      if (!matches(d)) continue;
      total += 1;
      if (ids.length < max) ids.push(d.id);
    }
    if (items.length < READ_PAGE) return { ids, total };
  }
}

/** The device ids within `devices`' scope an entity filter names, at most `max` of the matches (null: every device). */
export function filteredIds(filter: EntityFilter, devices: ScopedDevices, max = WS_MAX_FILTERED_ENTITIES): FilterMatch | null {
  if (filter.type === 'singleEntity') return { ids: [filter.singleEntity.id], total: 1 };
  if (filter.type === 'entityList') {
    // A listed device outside the scope is not followed, as if it did not exist: its updates would
    // otherwise reach the subscriber although its first answer left it out.
    const ids = [...new Set(filter.entityList)].filter((id) => devices.exists(id));
    return { ids, total: ids.length };
  }
  if (filter.type === 'deviceType' || filter.type === 'entityName') return matchDevices(devices, filter, max);
  return null;
}
