/** SQL for `scene_linkage` and `scene_linkage_log`. */
import type { ActionResult, Scene, SceneListQuery, SceneLogEntry, SceneLogPage, ScenePage } from '../../contract/scene-linkage.ts';
import { SCENE_LOG_KEEP } from '../../contract/scene-linkage.ts';
import type { Db } from '../../db/sqlite.ts';
import { containsPattern, pageWindow, Where } from '../../db/list-query.ts';

interface SceneRecord {
  id: string;
  name: string;
  description: string | null;
  enabled: number;
  for_customers: number;
  body: string;
  create_time: number;
  update_time: number;
}

type SceneBodyPart = Pick<Scene, 'schedule' | 'triggers' | 'conditions' | 'actions' | 'clearRules'>;

/** What the rule engine holds of an enabled scene (server/modules/rule-engine/rule-engine.ts). */
export type SceneRulePart = Pick<Scene, 'id' | 'schedule' | 'triggers' | 'clearRules'>;

/** Where a page of `enabledRules` ends: the next page starts after it. */
export interface RuleCursor {
  createTime: number;
  rowid: number;
}

interface RuleRecord {
  rid: number;
  id: string;
  create_time: number;
  schedule: string;
  triggers: string;
  clear_rules: string;
}

function toScene(r: SceneRecord): Scene {
  const body = JSON.parse(r.body) as SceneBodyPart;
  return { id: r.id, name: r.name, description: r.description, enabled: r.enabled === 1, forCustomers: r.for_customers === 1, ...body, createdTime: r.create_time, updatedTime: r.update_time };
}

interface LogRecord {
  id: string;
  scene_linkage_id: string;
  ts: number;
  trigger_index: number | null;
  trigger_type: SceneLogEntry['triggerType'];
  device_id: string | null;
  value: string | null;
  conditions_met: number;
  actions: string;
}

function toLogEntry(r: LogRecord): SceneLogEntry {
  return {
    id: r.id,
    sceneLinkageId: r.scene_linkage_id,
    ts: r.ts,
    triggerIndex: r.trigger_index,
    triggerType: r.trigger_type,
    deviceId: r.device_id,
    value: r.value === null ? null : (JSON.parse(r.value) as unknown),
    conditionsMet: r.conditions_met === 1,
    actions: JSON.parse(r.actions) as ActionResult[],
  };
}

export class SceneRepository {
  constructor(private readonly db: Db) {}

  /** `onlyIds`: within these scenes (a customer's, scene-service.ts visibleIn). */
  page(query: SceneListQuery, onlyIds?: readonly string[]): ScenePage {
    const where = new Where();
    if (onlyIds) where.add(onlyIds.length ? `id IN (${onlyIds.map(() => '?').join(',')})` : '0', ...onlyIds);
    if (query.name) where.add("name LIKE ? ESCAPE '\\'", containsPattern(query.name));
    if (query.enabled !== undefined) where.add('enabled = ?', query.enabled ? 1 : 0);
    // `deviceId` as a key appears in the body only in DEVICE_OUT actions (triggers and conditions
    // hold `deviceIds`); ids and trigger types are quote-free, so the JSON text is matched as is.
    if (query.deviceId) where.add('instr(body, ?) > 0', `"deviceId":${JSON.stringify(query.deviceId)}`);
    if (query.triggerType) where.add('instr(body, ?) > 0', `"type":"${query.triggerType}"`);
    const { limit, offset } = pageWindow(query.page, query.pageSize);
    const rows = this.db
      .prepare(`SELECT * FROM scene_linkage ${where.sql} ORDER BY create_time DESC, rowid DESC LIMIT ? OFFSET ?`)
      .all(...where.params, limit, offset) as unknown as SceneRecord[];
    const { n } = this.db.prepare(`SELECT COUNT(*) AS n FROM scene_linkage ${where.sql}`).get(...where.params) as { n: number };
    return { items: rows.map(toScene), total: n };
  }

  all(): Scene[] {
    return (this.db.prepare('SELECT * FROM scene_linkage ORDER BY create_time').all() as unknown as SceneRecord[]).map(toScene);
  }

  /**
   * Enabled scenes after `after` in creation order, `limit` of them, with only the body's parts the
   * engine holds: SQLite cuts them out of the JSON, so the conditions and actions of a thousand
   * scenes are never turned into objects at start.
   */
  enabledRules(after: RuleCursor | null, limit: number): { rules: SceneRulePart[]; last: RuleCursor | null } {
    const rows = this.db
      .prepare(
        `SELECT rowid AS rid, id, create_time, json_extract(body, '$.schedule') AS schedule, json_extract(body, '$.triggers') AS triggers,
           json_extract(body, '$.clearRules') AS clear_rules
         FROM scene_linkage WHERE enabled = 1 AND (create_time, rowid) > (?, ?) ORDER BY create_time, rowid LIMIT ?`,
      )
      .all(after?.createTime ?? Number.MIN_SAFE_INTEGER, after?.rowid ?? Number.MIN_SAFE_INTEGER, limit) as unknown as RuleRecord[];
    const rules = rows.map((r) => ({
      id: r.id,
      schedule: JSON.parse(r.schedule) as Scene['schedule'],
      triggers: JSON.parse(r.triggers) as Scene['triggers'],
      clearRules: JSON.parse(r.clear_rules) as Scene['clearRules'],
    }));
    const tail = rows.at(-1);
    return { rules, last: tail ? { createTime: tail.create_time, rowid: tail.rid } : null };
  }

  findById(id: string): Scene | undefined {
    const r = this.db.prepare('SELECT * FROM scene_linkage WHERE id = ?').get(id) as SceneRecord | undefined;
    return r && toScene(r);
  }

  save(scene: Scene): void {
    const { schedule, triggers, conditions, actions, clearRules } = scene;
    this.db
      .prepare(
        `INSERT INTO scene_linkage (id, name, description, enabled, for_customers, body, create_time, update_time) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT(id) DO UPDATE SET name = excluded.name, description = excluded.description, enabled = excluded.enabled,
           for_customers = excluded.for_customers, body = excluded.body, update_time = excluded.update_time`,
      )
      .run(scene.id, scene.name, scene.description, scene.enabled ? 1 : 0, scene.forCustomers ? 1 : 0, JSON.stringify({ schedule, triggers, conditions, actions, clearRules }), scene.createdTime, scene.updatedTime);
  }

  setEnabled(id: string, enabled: boolean, now: number): void {
    this.db.prepare('UPDATE scene_linkage SET enabled = ?, update_time = ? WHERE id = ?').run(enabled ? 1 : 0, now, id);
  }

  delete(ids: readonly string[]): number {
    const stmt = this.db.prepare('DELETE FROM scene_linkage WHERE id = ?');
    return ids.reduce((n, id) => n + Number(stmt.run(id).changes), 0);
  }

  insertLog(e: SceneLogEntry): void {
    this.db
      .prepare(
        `INSERT INTO scene_linkage_log (id, scene_linkage_id, ts, trigger_index, trigger_type, device_id, value, conditions_met, actions)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(e.id, e.sceneLinkageId, e.ts, e.triggerIndex, e.triggerType, e.deviceId, e.value === null ? null : JSON.stringify(e.value), e.conditionsMet ? 1 : 0, JSON.stringify(e.actions));
    this.db
      .prepare(
        `DELETE FROM scene_linkage_log WHERE scene_linkage_id = ? AND ts < (
           SELECT ts FROM scene_linkage_log WHERE scene_linkage_id = ? ORDER BY ts DESC LIMIT 1 OFFSET ?)`,
      )
      .run(e.sceneLinkageId, e.sceneLinkageId, SCENE_LOG_KEEP - 1);
  }

  logPage(sceneLinkageId: string, page: number, pageSize: number): SceneLogPage {
    const { limit, offset } = pageWindow(page, pageSize);
    const rows = this.db
      .prepare('SELECT * FROM scene_linkage_log WHERE scene_linkage_id = ? ORDER BY ts DESC, rowid DESC LIMIT ? OFFSET ?')
      .all(sceneLinkageId, limit, offset) as unknown as LogRecord[];
    const { n } = this.db.prepare('SELECT COUNT(*) AS n FROM scene_linkage_log WHERE scene_linkage_id = ?').get(sceneLinkageId) as { n: number };
    return { items: rows.map(toLogEntry), total: n };
  }
}
