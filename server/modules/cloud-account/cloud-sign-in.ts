/**
 * Sign-in with a cloud account. When the cloud's REST base is configured, a name that is no local
 * account (or is one linked to the cloud) is checked by the cloud: accepted credentials create or
 * update a local linked user with the mapped role, and leave a salted verifier so the same
 * credentials work while the cloud is unreachable, for `cloudOfflineDays` since the last online
 * check. A refusal by the cloud deletes the verifier and ends the user's sessions, so a password
 * changed or a user disabled there takes effect at the next online sign-in. The cloud password
 * itself is never stored. Local accounts never reach this code.
 */
import type { FastifyBaseLogger } from 'fastify';
import { TB_NULL_ID } from '../../contract/auth.ts';
import { ErrorCode } from '../../contract/errors.ts';
import type { OrganizationTreeNode } from '../../contract/organization.ts';
import { REAL_NAME_MAX } from '../../contract/validation.ts';
import { transaction, type Db } from '../../db/sqlite.ts';
import { AppError } from '../../lib/app-error.ts';
import { hashPassword, verifyPassword } from '../../lib/password.ts';
import type { Services } from '../../module.ts';
import type { UserRow } from '../auth/account-service.ts';
import type { ExternalSignIn } from '../auth/session-service.ts';
import { roleForCloudAuthority } from './authority.ts';
import { cloudCurrentUser, cloudCustomerTitle, cloudLogin, type CloudUser } from './cloud-rest-client.ts';
import { CloudUserLinkRepository, type CloudUserLink } from './cloud-user-link-repository.ts';

const DAY_MS = 24 * 3600 * 1000;

/**
 * The password hash of a linked user's row: not a scrypt string, so it never verifies. A linked
 * user is checked by the cloud or the link's verifier, never by the local hash.
 */
const LINKED_PASSWORD_HASH = 'cloud-linked';

export interface CloudSignInDeps {
  db: Db;
  log: FastifyBaseLogger;
  services: Pick<Services, 'accounts' | 'sessions' | 'cloud' | 'organizations' | 'userAdmin'>;
  offlineDays: number;
}

/** The first organization, depth first, called `name`. */
function organizationNamed(nodes: readonly OrganizationTreeNode[], name: string): string | null {
  for (const node of nodes) {
    if (node.name === name) return node.id;
    const inner = organizationNamed(node.children, name);
    if (inner) return inner;
  }
  return null;
}

function realNameOf(cloudUser: CloudUser, username: string): string {
  const full = [cloudUser.firstName, cloudUser.lastName].filter(Boolean).join(' ').trim();
  return (full || cloudUser.email || username).slice(0, REAL_NAME_MAX);
}

export class CloudSignIn implements ExternalSignIn {
  readonly links: CloudUserLinkRepository;

  constructor(private readonly deps: CloudSignInDeps) {
    this.links = new CloudUserLinkRepository(deps.db);
  }

  handles(_username: string, user: UserRow | undefined): boolean {
    if (user) return this.links.findByUserId(user.id) !== undefined;
    return this.deps.services.cloud.httpUrl() !== null;
  }

  async signIn(username: string, password: string): Promise<UserRow | null> {
    const { accounts, cloud } = this.deps.services;
    const local = accounts.findByUsername(username);
    const link = local && this.links.findByUserId(local.id);
    const base = cloud.httpUrl();
    if (base) {
      const outcome = await cloudLogin(base, username, password);
      if (outcome.kind === 'accepted') {
        const signedIn = await this.linkOnline(base, outcome.token, username, password, local);
        if (signedIn) return signedIn;
      } else if (outcome.kind === 'refused') {
        if (local && link) this.forget(local.id);
        return null;
      } else {
        this.deps.log.warn({ reason: outcome.reason }, 'cloud unreachable for a sign-in: checking the stored verifier');
      }
    }
    return this.offline(local, link, password);
  }

  /**
   * The local user for credentials the cloud accepted; null when the cloud then did not say who
   * the user is (the offline path decides). Throws code 10 for an authority that may not sign in.
   */
  private async linkOnline(base: string, token: string, username: string, password: string, local: UserRow | undefined): Promise<UserRow | null> {
    let cloudUser: CloudUser;
    try {
      cloudUser = await cloudCurrentUser(base, token);
    } catch (err) {
      this.deps.log.warn({ reason: (err as Error).message }, 'cloud accepted a sign-in but did not name the user');
      return null;
    }
    const role = roleForCloudAuthority(cloudUser.authority);
    if (!role) {
      if (local && this.links.findByUserId(local.id)) this.forget(local.id);
      throw new AppError(ErrorCode.AUTHENTICATION, 'error.auth.cloudRoleRefused');
    }
    const customerTitle =
      role === 'CUSTOMER_USER' && cloudUser.customerId && cloudUser.customerId !== TB_NULL_ID
        ? await cloudCustomerTitle(base, token, cloudUser.customerId)
        : null;
    const organizationId = customerTitle ? organizationNamed(this.deps.services.organizations.tree(), customerTitle) : null;
    const verifier = await hashPassword(password);
    const { accounts } = this.deps.services;
    // Read again inside the transaction: a parallel sign-in of the same account may have created
    // the user while this one waited for the cloud (a second insert would break the unique name).
    return transaction(this.deps.db, () => {
      const existing = accounts.findByUsername(username);
      // A local account that took the name meanwhile stays local.
      if (existing && existing.id !== local?.id && !this.links.findByUserId(existing.id)) return null;
      const user = existing
        ? existing.role === role ? existing : accounts.setRole(existing.id, role)!
        : accounts.create({ username, passwordHash: LINKED_PASSWORD_HASH, role, realName: realNameOf(cloudUser, username) });
      const row: CloudUserLink = { userId: user.id, cloudUserId: cloudUser.id, authority: cloudUser.authority, customerTitle, organizationId, verifier, lastOnlineCheck: Date.now() };
      this.links.save(row);
      // A customer sees the devices of the organization named like its cloud customer, and only those.
      if (role === 'CUSTOMER_USER') this.deps.services.userAdmin.setMemberships(user.id, organizationId ? [organizationId] : []);
      return user;
    });
  }

  /** The stored verifier's answer while the cloud cannot be asked, within the offline allowance. */
  private async offline(local: UserRow | undefined, link: CloudUserLink | undefined, password: string): Promise<UserRow | null> {
    if (!local || !link?.verifier) return null;
    if (Date.now() - link.lastOnlineCheck >= this.deps.offlineDays * DAY_MS) return null;
    return (await verifyPassword(password, link.verifier)) ? local : null;
  }

  /** The cloud refused this user: no more offline sign-ins, and the open sessions end. */
  private forget(userId: string): void {
    this.links.dropVerifier(userId);
    this.deps.services.sessions.revokeSessions(userId);
  }
}
