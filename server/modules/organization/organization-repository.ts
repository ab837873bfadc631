/** SQL for `organization`; camelCase rows in, snake_case columns out. */
import type { Organization, OrganizationListQuery } from '../../contract/organization.ts';
import type { Db } from '../../db/sqlite.ts';
import type { DeviceScope } from '../../lib/device-scope.ts';
import { containsPattern, orderBy, pageWindow, Where } from '../../db/list-query.ts';

interface OrganizationRecord {
  id: string;
  name: string;
  sort: number;
  parent_id: string | null;
  create_time: number;
  update_time: number;
}

function toOrganization(r: OrganizationRecord): Organization {
  return {
    id: r.id,
    name: r.name,
    sort: r.sort,
    parentId: r.parent_id,
    createdTime: r.create_time,
    updatedTime: r.update_time,
  };
}

const sortColumns = { name: 'name', sort: 'sort', createdTime: 'create_time' } as const;

export class OrganizationRepository {
  constructor(private readonly db: Db) {}

  /** Every organization, siblings' order first (sort, then name): the tree is built from this. */
  all(): Organization[] {
    const rows = this.db.prepare('SELECT * FROM organization ORDER BY sort, name, id').all() as unknown as OrganizationRecord[];
    return rows.map(toOrganization);
  }

  /** `scope`: only its organizations (server/lib/device-scope.ts). */
  page(query: OrganizationListQuery, scope: DeviceScope = null): { items: Organization[]; total: number } {
    const where = new Where();
    if (scope) {
      const ids = scope.organizationIds;
      where.add(ids.length ? `id IN (${ids.map(() => '?').join(',')})` : '0', ...ids);
    }
    if (query.name) where.add("name LIKE ? ESCAPE '\\'", containsPattern(query.name));
    if (query.parentId) where.add('parent_id = ?', query.parentId);
    const { limit, offset } = pageWindow(query.page, query.pageSize);
    const order = orderBy(sortColumns, query.sortField, query.sortOrder, 'sort, name, rowid', 'rowid');
    const rows = this.db
      .prepare(`SELECT * FROM organization ${where.sql} ${order} LIMIT ? OFFSET ?`)
      .all(...where.params, limit, offset) as unknown as OrganizationRecord[];
    const { total } = this.db.prepare(`SELECT COUNT(*) AS total FROM organization ${where.sql}`).get(...where.params) as { total: number };
    return { items: rows.map(toOrganization), total };
  }

  findById(id: string): Organization | undefined {
    const r = this.db.prepare('SELECT * FROM organization WHERE id = ?').get(id) as OrganizationRecord | undefined;
    return r && toOrganization(r);
  }

  exists(id: string): boolean {
    return this.db.prepare('SELECT 1 FROM organization WHERE id = ?').get(id) !== undefined;
  }

  /** The id of the sibling under `parentId` (null: among roots) called `name`, if any. */
  siblingNamed(parentId: string | null, name: string): string | undefined {
    const r = this.db
      .prepare("SELECT id FROM organization WHERE ifnull(parent_id, '') = ? AND name = ?")
      .get(parentId ?? '', name) as { id: string } | undefined;
    return r?.id;
  }

  /** `id` and every organization below it. */
  subtreeIds(id: string): string[] {
    const rows = this.db
      .prepare(
        `WITH RECURSIVE sub(id) AS (SELECT ? UNION ALL SELECT o.id FROM organization o JOIN sub ON o.parent_id = sub.id)
         SELECT id FROM sub`,
      )
      .all(id) as { id: string }[];
    return rows.map((r) => r.id);
  }

  /** Children of `parentId`. */
  childIds(parentId: string): string[] {
    return (this.db.prepare('SELECT id FROM organization WHERE parent_id = ?').all(parentId) as { id: string }[]).map((r) => r.id);
  }

  /** The names of those of `ids` that exist. */
  namesOf(ids: readonly string[]): Map<string, string> {
    if (!ids.length) return new Map();
    const rows = this.db.prepare(`SELECT id, name FROM organization WHERE id IN (${ids.map(() => '?').join(',')})`).all(...ids) as { id: string; name: string }[];
    return new Map(rows.map((r) => [r.id, r.name]));
  }

  insert(org: Organization): void {
    this.db
      .prepare('INSERT INTO organization (id, name, sort, parent_id, create_time, update_time) VALUES (?, ?, ?, ?, ?, ?)')
      .run(org.id, org.name, org.sort, org.parentId, org.createdTime, org.updatedTime);
  }

  update(org: Organization): void {
    this.db
      .prepare('UPDATE organization SET name = ?, sort = ?, parent_id = ?, update_time = ? WHERE id = ?')
      .run(org.name, org.sort, org.parentId, org.updatedTime, org.id);
  }

  delete(id: string): void {
    this.db.prepare('DELETE FROM organization WHERE id = ?').run(id);
  }
}
