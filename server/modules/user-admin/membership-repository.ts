/** SQL for `user_organization`: which organizations each user belongs to. */
import type { Db } from '../../db/sqlite.ts';

export class MembershipRepository {
  constructor(private readonly db: Db) {}

  organizationIdsOf(userId: string): string[] {
    const rows = this.db.prepare('SELECT organization_id FROM user_organization WHERE user_id = ? ORDER BY organization_id').all(userId) as {
      organization_id: string;
    }[];
    return rows.map((r) => r.organization_id);
  }

  /** Memberships of many users at once (one list page). */
  organizationIdsOfMany(userIds: readonly string[]): Map<string, string[]> {
    const byUser = new Map<string, string[]>(userIds.map((id) => [id, []]));
    if (!userIds.length) return byUser;
    const rows = this.db
      .prepare(`SELECT user_id, organization_id FROM user_organization WHERE user_id IN (${userIds.map(() => '?').join(',')}) ORDER BY organization_id`)
      .all(...userIds) as { user_id: string; organization_id: string }[];
    for (const r of rows) byUser.get(r.user_id)?.push(r.organization_id);
    return byUser;
  }

  /** The users belonging to any of these organizations (a notice to an organization or department). */
  memberIdsOf(organizationIds: readonly string[]): string[] {
    if (!organizationIds.length) return [];
    const rows = this.db
      .prepare(`SELECT DISTINCT user_id FROM user_organization WHERE organization_id IN (${organizationIds.map(() => '?').join(',')}) ORDER BY user_id`)
      .all(...organizationIds) as { user_id: string }[];
    return rows.map((r) => r.user_id);
  }

  replace(userId: string, organizationIds: readonly string[]): void {
    this.db.prepare('DELETE FROM user_organization WHERE user_id = ?').run(userId);
    const insert = this.db.prepare('INSERT INTO user_organization (id, user_id, organization_id) VALUES (?, ?, ?)');
    for (const orgId of new Set(organizationIds)) insert.run(`${userId}:${orgId}`, userId, orgId);
  }
}
