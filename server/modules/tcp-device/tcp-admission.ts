/**
 * Who may hold an unregistered connection on the TCP access port: counts them per address and in
 * total against the caps of tcp-access-limits.ts, and remembers failed registrations per address.
 * The verdict depends on the address and the counts only, never on the bytes a client sent.
 */
import { FailureWindow } from '../../lib/failure-counters.ts';
import { openFileLimit } from '../../lib/open-file-limit.ts';
import { unregisteredBudget, type TcpAccessLimits } from './tcp-access-limits.ts';

export type AdmissionRefusal = 'rateLimited' | 'busy';

export class TcpAdmission {
  private readonly perAddress = new Map<string, number>();
  private total = 0;
  private readonly failures: FailureWindow;
  /** Null: no total cap (the open-file limit is unknown). */
  readonly budget: number | null;

  constructor(private readonly limits: TcpAccessLimits) {
    this.failures = new FailureWindow(limits.failureLimit, limits.failureWindowMs);
    this.budget = unregisteredBudget(limits.openFileLimit ?? openFileLimit());
  }

  /** Takes an unregistered connection from `address`, or says why not. */
  admit(address: string, now = Date.now()): AdmissionRefusal | null {
    if (this.failures.retryAfterMs(address, now) > 0) return 'rateLimited';
    const held = this.perAddress.get(address) ?? 0;
    if (held >= this.limits.unregisteredPerAddress || (this.budget !== null && this.total >= this.budget)) return 'busy';
    this.perAddress.set(address, held + 1);
    this.total += 1;
    return null;
  }

  /** The connection admitted from `address` registered or closed: it no longer counts. */
  release(address: string): void {
    const left = (this.perAddress.get(address) ?? 1) - 1;
    if (left > 0) this.perAddress.set(address, left);
    else this.perAddress.delete(address);
    this.total = Math.max(0, this.total - 1);
  }

  /** A registration from `address` failed (wrong bytes, none in time, or given up). */
  failed(address: string, now = Date.now()): void {
    this.failures.record(address, now);
  }

  /** Unregistered connections held now. */
  get unregistered(): number {
    return this.total;
  }
}
