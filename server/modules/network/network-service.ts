/**
 * The safe apply, one state machine for every applier: validate, write the pending apply (with the
 * settings it replaces) durably, apply, then wait for a confirmation until `confirmBy`. No
 * confirmation in time, a failed applier, or a start that finds a pending apply: the previous
 * settings are applied again. Operations run one at a time, so a confirmation racing the timer
 * either keeps the change or finds it rolled back, never half of each.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { ErrorCode } from '../../contract/errors.ts';
import {
  CONFIRM_WITHIN,
  type NetworkApplyResult,
  type NetworkPlan,
  type NetworkSettings,
  type NetworkSettingsBody,
  type NetworkState,
  type WifiNetwork,
} from '../../contract/network.ts';
import { networkProblems } from '../../contract/rules/network.ts';
import { AppError } from '../../lib/app-error.ts';
import { assertNoViolations, violationError } from '../../lib/field-errors.ts';
import type { ApplyJournal, PendingApply } from './apply-journal.ts';
import type { NetworkApplier, NetworkReading } from './network-applier.ts';
import { settingsDiff } from './settings-diff.ts';

/** Where the console was reached, to name the new URL when the LAN address under it moves. */
export interface RequestOrigin {
  protocol: string;
  hostname: string;
  port: number | null;
}

function failure(err: unknown): AppError {
  const reason = (err instanceof Error ? err.message : String(err)).trim().slice(0, 500);
  return new AppError(ErrorCode.GENERAL, 'error.network.applyFailed', { reason }, { status: 502, expected: true });
}

function unknownApply(): AppError {
  return violationError([{ field: 'applyId', key: 'error.network.applyUnknown' }]);
}

export class NetworkService {
  private readonly applier: NetworkApplier;
  private readonly journal: ApplyJournal;
  private readonly log: FastifyBaseLogger;
  private timer: NodeJS.Timeout | null = null;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(deps: { applier: NetworkApplier; journal: ApplyJournal; log: FastifyBaseLogger }) {
    this.applier = deps.applier;
    this.journal = deps.journal;
    this.log = deps.log;
  }

  /** One operation at a time: each waits for the one before, whatever its outcome. */
  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.queue.then(fn, fn);
    this.queue = run.catch(() => undefined);
    return run;
  }

  async state(): Promise<NetworkState> {
    const { settings, facts } = await this.applier.read();
    const pending = this.journal.read();
    const { password, ...wifi } = settings.wifi;
    const { pin, ...cellular } = settings.cellular;
    return {
      applier: this.applier.name,
      lan: { ...settings.lan, ...facts.lan },
      wan: { ...settings.wan, ...facts.wan },
      wifi: { ...wifi, passwordSet: Boolean(password), ...facts.wifi },
      cellular: { ...cellular, pinSet: Boolean(pin), ...facts.cellular },
      ...(pending ? { pending: { applyId: pending.applyId, confirmBy: pending.confirmBy } } : {}),
    };
  }

  /** The settings in effect with the body's sections put over them, once the body passes every rule. */
  private merged(reading: NetworkReading, body: NetworkSettingsBody): NetworkSettings {
    const current = reading.settings;
    assertNoViolations(networkProblems(body, { passwordSet: Boolean(current.wifi.password), lan: current.lan, wan: current.wan }));
    const wifi = body.wifi ? { ...body.wifi, password: body.wifi.password ?? current.wifi.password } : current.wifi;
    const cellular = body.cellular ? { ...body.cellular, pin: body.cellular.pin ?? current.cellular.pin } : current.cellular;
    if (wifi.password === undefined) delete wifi.password;
    if (cellular.pin === undefined) delete cellular.pin;
    return { lan: body.lan ?? current.lan, wan: body.wan ?? current.wan, wifi, cellular };
  }

  async plan(body: NetworkSettingsBody): Promise<NetworkPlan> {
    const reading = await this.applier.read();
    return { changes: settingsDiff(reading.settings, this.merged(reading, body)) };
  }

  apply(body: NetworkSettingsBody, confirmWithinS: number = CONFIRM_WITHIN.default, origin?: RequestOrigin): Promise<NetworkApplyResult> {
    return this.serial(async () => {
      if (this.journal.read()) throw new AppError(ErrorCode.VERSION_CONFLICT, 'error.network.applyPending');
      const reading = await this.applier.read();
      const next = this.merged(reading, body);
      if (settingsDiff(reading.settings, next).length === 0) throw violationError([{ field: '', key: 'error.network.noChange' }]);
      const pending: PendingApply = {
        applyId: randomBytes(32).toString('base64url'),
        confirmBy: new Date(Date.now() + confirmWithinS * 1000).toISOString(),
        previous: reading.settings,
        next,
      };
      this.journal.write(pending);
      try {
        const keep = (token: string): void => {
          pending.token = token;
          this.journal.write(pending);
        };
        await this.applier.apply(next, { applyId: pending.applyId, confirmWithinS, keep });
      } catch (err) {
        this.log.warn({ err: (err as Error).message }, 'network apply failed; restoring the previous settings');
        await this.restore(pending);
        throw failure(err);
      }
      this.arm(pending);
      this.log.info({ applyId: pending.applyId.slice(0, 8), confirmBy: pending.confirmBy }, 'network settings applied, awaiting confirmation');
      const newUrl = this.newUrl(reading.settings, next, origin);
      return { applyId: pending.applyId, confirmBy: pending.confirmBy, ...(newUrl ? { newUrl } : {}) };
    });
  }

  /** The console's address after the change, when the browser came in over the LAN address that moves. */
  private newUrl(previous: NetworkSettings, next: NetworkSettings, origin: RequestOrigin | undefined): string | undefined {
    if (!this.applier.touchesHost || !origin) return undefined;
    const moved = previous.lan.ipAddress !== next.lan.ipAddress && next.lan.connectionType === 'IMMOBILIZATION';
    if (!moved || origin.hostname !== previous.lan.ipAddress) return undefined;
    return `${origin.protocol}://${next.lan.ipAddress}${origin.port ? `:${origin.port}` : ''}`;
  }

  confirm(applyId: string): Promise<void> {
    return this.serial(async () => {
      const pending = this.journal.read();
      if (!pending || pending.applyId !== applyId || Date.parse(pending.confirmBy) < Date.now()) throw unknownApply();
      await this.applier.confirm(pending.token);
      this.journal.clear();
      this.disarm();
      this.log.info({ applyId: applyId.slice(0, 8) }, 'network settings confirmed');
    });
  }

  scanWifi(): Promise<WifiNetwork[]> {
    return this.applier.scanWifi();
  }

  /** At start: an apply still pending was never confirmed (the process died in its window): undo it. */
  recover(): Promise<void> {
    return this.serial(async () => {
      const pending = this.journal.read();
      if (!pending) return;
      this.log.warn({ applyId: pending.applyId.slice(0, 8) }, 'unconfirmed network apply found at start; restoring the previous settings');
      await this.restore(pending);
    });
  }

  private arm(pending: PendingApply): void {
    this.disarm();
    this.timer = setTimeout(() => {
      void this.serial(async () => {
        const still = this.journal.read();
        if (still?.applyId !== pending.applyId) return;
        this.log.warn({ applyId: pending.applyId.slice(0, 8) }, 'network apply not confirmed in time; restoring the previous settings');
        await this.restore(still);
      });
    }, Math.max(0, Date.parse(pending.confirmBy) - Date.now()));
    this.timer.unref();
  }

  private disarm(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  /**
   * Puts the previous settings back and forgets the apply. When the applier cannot, the journal
   * stays, so the next start tries again rather than keep settings nobody confirmed.
   */
  private async restore(pending: PendingApply): Promise<void> {
    try {
      await this.applier.rollback(pending.previous, pending.token);
      this.journal.clear();
    } catch (err) {
      this.log.error({ err: (err as Error).message }, 'network rollback failed; it is tried again at the next start');
    }
    this.disarm();
  }

  close(): void {
    // A pending apply stays in the journal: the next start rolls it back, as after a power cut.
    this.disarm();
  }
}
