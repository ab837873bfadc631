/** SQL for `thing_model_item` (the draft) and `thing_model_version` (published snapshots). */
import type { FunctionType, ThingModelItem, ThingModelListQuery } from '../../contract/thing-model.ts';
import type { Db } from '../../db/sqlite.ts';
import { pageWindow, Where } from '../../db/list-query.ts';

/** An item as stored: its status is worked out against the published version, never stored. */
export type StoredItem = Omit<ThingModelItem, 'status'>;

interface ItemRecord {
  id: string;
  device_profile_id: string;
  function_type: FunctionType;
  function_name: string;
  identifier: string;
  access_mode: StoredItem['accessMode'];
  event_type: StoredItem['eventType'];
  call_type: StoredItem['callType'];
  function_json: string;
  extension_desc: string | null;
  create_time: number;
  update_time: number;
}

function toItem(r: ItemRecord): StoredItem {
  return {
    id: r.id,
    deviceProfileId: r.device_profile_id,
    functionType: r.function_type,
    functionName: r.function_name,
    identifier: r.identifier,
    accessMode: r.access_mode,
    eventType: r.event_type,
    callType: r.call_type,
    functionJson: JSON.parse(r.function_json) as StoredItem['functionJson'],
    extensionDesc: r.extension_desc === null ? null : (JSON.parse(r.extension_desc) as StoredItem['extensionDesc']),
    createdTime: r.create_time,
    updatedTime: r.update_time,
  };
}

/** A published version: the items as they were, in creation order. */
export interface VersionRow {
  version: number;
  items: StoredItem[];
  publishedTime: number;
}

const ORDER = 'ORDER BY create_time, rowid';

export class ThingModelRepository {
  constructor(private readonly db: Db) {}

  page(deviceProfileId: string, query: ThingModelListQuery): { items: StoredItem[]; total: number } {
    const where = new Where().add('device_profile_id = ?', deviceProfileId);
    if (query.functionType) where.add('function_type = ?', query.functionType);
    const { limit, offset } = pageWindow(query.page, query.pageSize);
    const rows = this.db
      .prepare(`SELECT * FROM thing_model_item ${where.sql} ${ORDER} LIMIT ? OFFSET ?`)
      .all(...where.params, limit, offset) as unknown as ItemRecord[];
    const { total } = this.db.prepare(`SELECT COUNT(*) AS total FROM thing_model_item ${where.sql}`).get(...where.params) as { total: number };
    return { items: rows.map(toItem), total };
  }

  /** Every draft item of a product, in creation order. */
  all(deviceProfileId: string): StoredItem[] {
    const rows = this.db
      .prepare(`SELECT * FROM thing_model_item WHERE device_profile_id = ? ${ORDER}`)
      .all(deviceProfileId) as unknown as ItemRecord[];
    return rows.map(toItem);
  }

  findById(id: string): StoredItem | undefined {
    const r = this.db.prepare('SELECT * FROM thing_model_item WHERE id = ?').get(id) as ItemRecord | undefined;
    return r && toItem(r);
  }

  /** The id of the product's item with this identifier. */
  idWithIdentifier(deviceProfileId: string, identifier: string): string | undefined {
    const r = this.db
      .prepare('SELECT id FROM thing_model_item WHERE device_profile_id = ? AND identifier = ?')
      .get(deviceProfileId, identifier) as { id: string } | undefined;
    return r?.id;
  }

  insert(item: StoredItem): void {
    this.db
      .prepare(
        `INSERT INTO thing_model_item (id, device_profile_id, function_type, function_name, identifier, access_mode,
           event_type, call_type, function_json, extension_desc, create_time, update_time)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        item.id, item.deviceProfileId, item.functionType, item.functionName, item.identifier, item.accessMode,
        item.eventType, item.callType, JSON.stringify(item.functionJson),
        item.extensionDesc === null ? null : JSON.stringify(item.extensionDesc), item.createdTime, item.updatedTime,
      );
  }

  update(item: StoredItem): void {
    this.db
      .prepare(
        `UPDATE thing_model_item SET function_type = ?, function_name = ?, identifier = ?, access_mode = ?, event_type = ?,
           call_type = ?, function_json = ?, extension_desc = ?, update_time = ?
         WHERE id = ?`,
      )
      .run(
        item.functionType, item.functionName, item.identifier, item.accessMode, item.eventType, item.callType,
        JSON.stringify(item.functionJson), item.extensionDesc === null ? null : JSON.stringify(item.extensionDesc),
        item.updatedTime, item.id,
      );
  }

  /** False when there was no such item. */
  delete(id: string): boolean {
    return this.db.prepare('DELETE FROM thing_model_item WHERE id = ?').run(id).changes > 0;
  }

  latestVersion(deviceProfileId: string): VersionRow | undefined {
    const r = this.db
      .prepare('SELECT version, model_json, published_time FROM thing_model_version WHERE device_profile_id = ? ORDER BY version DESC LIMIT 1')
      .get(deviceProfileId) as { version: number; model_json: string; published_time: number } | undefined;
    if (!r) return undefined;
    return { version: r.version, items: (JSON.parse(r.model_json) as { items: StoredItem[] }).items, publishedTime: r.published_time };
  }

  insertVersion(id: string, deviceProfileId: string, row: VersionRow): void {
    this.db
      .prepare(
        `INSERT INTO thing_model_version (id, device_profile_id, version, model_json, item_count, published_time)
         VALUES (?, ?, ?, ?, ?, ?)`,
      )
      .run(id, deviceProfileId, row.version, JSON.stringify({ items: row.items }), row.items.length, row.publishedTime);
  }
}
