/**
 * The editor's way in: an administrator's console asks for a ticket (single use, 60 s), the
 * browser brings it once in the editor's URL and gets a session cookie for that one instance.
 * Both live in memory only: a gateway restart signs every editor out, which is what it should do.
 */
import { randomBytes } from 'node:crypto';

export const TICKET_TTL_MS = 60_000;
export const EDITOR_SESSION_TTL_MS = 8 * 3600_000;
/** The editor cookie's name; its Path is the instance's editor path, so each instance has its own. */
export const EDITOR_COOKIE = 'edge_nr_session';

interface Grant {
  instanceId: string;
  expires: number;
}

export class NodeRedTickets {
  private readonly tickets = new Map<string, Grant>();
  private readonly sessions = new Map<string, Grant>();

  constructor(private readonly now: () => number = Date.now) {}

  issue(instanceId: string): string {
    this.sweep();
    const ticket = randomBytes(24).toString('base64url');
    this.tickets.set(ticket, { instanceId, expires: this.now() + TICKET_TTL_MS });
    return ticket;
  }

  /** A session id for the ticket's instance; null for an unknown, used, expired or other instance's ticket. */
  redeem(ticket: string, instanceId: string): string | null {
    const grant = this.tickets.get(ticket);
    // Used once whatever the outcome: a ticket shown to the wrong instance is spent too.
    this.tickets.delete(ticket);
    if (!grant || grant.instanceId !== instanceId || grant.expires < this.now()) return null;
    const session = randomBytes(32).toString('base64url');
    this.sessions.set(session, { instanceId, expires: this.now() + EDITOR_SESSION_TTL_MS });
    return session;
  }

  admits(session: string | undefined, instanceId: string): boolean {
    const grant = session ? this.sessions.get(session) : undefined;
    return !!grant && grant.instanceId === instanceId && grant.expires >= this.now();
  }

  /** Signs every editor of an instance out (deleted instance). */
  revoke(instanceId: string): void {
    for (const map of [this.tickets, this.sessions]) {
      for (const [key, grant] of map) if (grant.instanceId === instanceId) map.delete(key);
    }
  }

  private sweep(): void {
    const now = this.now();
    for (const map of [this.tickets, this.sessions]) {
      for (const [key, grant] of map) if (grant.expires < now) map.delete(key);
    }
  }
}
