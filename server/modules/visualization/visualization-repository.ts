/** SQL for `visualization` and `visualization_share`. */
import type { Layout, Visualization, VisualizationListQuery, VisualizationPage, VisualizationSummary } from '../../contract/visualization.ts';
import type { Db } from '../../db/sqlite.ts';
import { containsPattern, pageWindow, Where } from '../../db/list-query.ts';

interface VisualizationRecord {
  id: string;
  name: string;
  platform: Visualization['platform'];
  template: number;
  organization_id: string | null;
  thumbnail: string | null;
  layout: string;
  create_time: number;
  update_time: number;
  shared: number;
}

export interface ShareRecord {
  visualizationId: string;
  expiresAt: number | null;
}

/** A share counts as live until it expires; the clock is passed in so one request reads one instant. */
const SHARED_SQL = '(SELECT COUNT(*) FROM visualization_share s WHERE s.visualization_id = v.id AND (s.expires_at IS NULL OR s.expires_at > ?)) AS shared';

function toSummary(r: VisualizationRecord): VisualizationSummary {
  return {
    id: r.id,
    name: r.name,
    platform: r.platform,
    template: r.template === 1,
    organizationId: r.organization_id,
    ...(r.thumbnail ? { thumbnail: r.thumbnail } : {}),
    shared: r.shared > 0,
    updatedTime: r.update_time,
  };
}

function toVisualization(r: VisualizationRecord): Visualization {
  return { ...toSummary(r), layout: JSON.parse(r.layout) as Layout, createdTime: r.create_time };
}

export class VisualizationRepository {
  constructor(private readonly db: Db) {}

  /** `organizationIds`: only configurations of these organizations (a scoped caller). */
  page(query: VisualizationListQuery, organizationIds: readonly string[] | null, now: number): VisualizationPage {
    const where = new Where();
    if (organizationIds) where.add(organizationIds.length ? `organization_id IN (${organizationIds.map(() => '?').join(',')})` : '0', ...organizationIds);
    if (query.name) where.add("name LIKE ? ESCAPE '\\'", containsPattern(query.name));
    if (query.platform) where.add('platform = ?', query.platform);
    if (query.template !== undefined) where.add('template = ?', query.template ? 1 : 0);
    const { limit, offset } = pageWindow(query.page, query.pageSize);
    // The list leaves the layouts out: a page of them could reach megabytes.
    const rows = this.db
      .prepare(
        `SELECT v.id, v.name, v.platform, v.template, v.organization_id, v.thumbnail, '' AS layout, v.create_time, v.update_time, ${SHARED_SQL}
         FROM visualization v ${where.sql} ORDER BY update_time DESC, rowid DESC LIMIT ? OFFSET ?`,
      )
      .all(now, ...where.params, limit, offset) as unknown as VisualizationRecord[];
    const { n } = this.db.prepare(`SELECT COUNT(*) AS n FROM visualization ${where.sql}`).get(...where.params) as { n: number };
    return { items: rows.map(toSummary), total: n };
  }

  find(id: string, now: number): Visualization | undefined {
    const r = this.db.prepare(`SELECT v.*, ${SHARED_SQL} FROM visualization v WHERE id = ?`).get(now, id) as VisualizationRecord | undefined;
    return r && toVisualization(r);
  }

  save(v: Visualization): void {
    this.db
      .prepare(
        `INSERT INTO visualization (id, name, platform, template, organization_id, thumbnail, layout, create_time, update_time) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT(id) DO UPDATE SET name = excluded.name, platform = excluded.platform, template = excluded.template,
           organization_id = excluded.organization_id, thumbnail = excluded.thumbnail, layout = excluded.layout, update_time = excluded.update_time`,
      )
      .run(v.id, v.name, v.platform, v.template ? 1 : 0, v.organizationId, v.thumbnail ?? null, JSON.stringify(v.layout), v.createdTime, v.updatedTime);
  }

  delete(ids: readonly string[]): number {
    const stmt = this.db.prepare('DELETE FROM visualization WHERE id = ?');
    return ids.reduce((n, id) => n + Number(stmt.run(id).changes), 0);
  }

  /** Replaces the configuration's share (one live link per configuration). */
  replaceShare(share: { id: string; visualizationId: string; tokenHash: string; expiresAt: number | null; createdBy: string; now: number }): void {
    this.db.prepare('DELETE FROM visualization_share WHERE visualization_id = ?').run(share.visualizationId);
    this.db
      .prepare('INSERT INTO visualization_share (id, visualization_id, token_hash, expires_at, created_by, create_time) VALUES (?, ?, ?, ?, ?, ?)')
      .run(share.id, share.visualizationId, share.tokenHash, share.expiresAt, share.createdBy, share.now);
  }

  deleteShare(visualizationId: string): void {
    this.db.prepare('DELETE FROM visualization_share WHERE visualization_id = ?').run(visualizationId);
  }

  shareByHash(tokenHash: string): ShareRecord | undefined {
    const r = this.db.prepare('SELECT visualization_id, expires_at FROM visualization_share WHERE token_hash = ?').get(tokenHash) as
      | { visualization_id: string; expires_at: number | null }
      | undefined;
    return r && { visualizationId: r.visualization_id, expiresAt: r.expires_at };
  }
}
