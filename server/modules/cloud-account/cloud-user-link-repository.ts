/** SQL for `cloud_user_link`: the local users that sign in with a cloud account. */
import type { Db } from '../../db/sqlite.ts';

export interface CloudUserLink {
  userId: string;
  cloudUserId: string;
  authority: string;
  customerTitle: string | null;
  organizationId: string | null;
  /** Null once the cloud refused the password: no offline sign-in until the next online one. */
  verifier: string | null;
  lastOnlineCheck: number;
}

interface LinkRecord {
  user_id: string;
  cloud_user_id: string;
  authority: string;
  customer_title: string | null;
  organization_id: string | null;
  verifier: string | null;
  last_online_check: number;
}

function toLink(r: LinkRecord): CloudUserLink {
  return {
    userId: r.user_id,
    cloudUserId: r.cloud_user_id,
    authority: r.authority,
    customerTitle: r.customer_title,
    organizationId: r.organization_id,
    verifier: r.verifier,
    lastOnlineCheck: r.last_online_check,
  };
}

export class CloudUserLinkRepository {
  constructor(private readonly db: Db) {}

  findByUserId(userId: string): CloudUserLink | undefined {
    const r = this.db.prepare('SELECT * FROM cloud_user_link WHERE user_id = ?').get(userId) as LinkRecord | undefined;
    return r && toLink(r);
  }

  save(link: CloudUserLink): void {
    this.db
      .prepare(
        `INSERT INTO cloud_user_link (id, user_id, cloud_user_id, authority, customer_title, organization_id, verifier, last_online_check)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT(user_id) DO UPDATE SET cloud_user_id = excluded.cloud_user_id, authority = excluded.authority,
           customer_title = excluded.customer_title, organization_id = excluded.organization_id,
           verifier = excluded.verifier, last_online_check = excluded.last_online_check`,
      )
      .run(link.userId, link.userId, link.cloudUserId, link.authority, link.customerTitle, link.organizationId, link.verifier, link.lastOnlineCheck);
  }

  dropVerifier(userId: string): void {
    this.db.prepare('UPDATE cloud_user_link SET verifier = NULL WHERE user_id = ?').run(userId);
  }
}
