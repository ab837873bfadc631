/**
 * Refusal for want of disk space, shared by what stores device data (the telemetry module refuses
 * while its disk-guard.ts reports low space) and what answers devices (the transport module turns
 * it into an MQTT reason code or HTTP 507), so neither module reaches into the other.
 */
import { ErrorCode } from '../contract/errors.ts';
import { AppError } from './app-error.ts';

const SQLITE_FULL = 13;

/** Telemetry refused for want of disk space (HTTP 507; the MQTT reason is in the transport module's mqtt-reason-codes.ts). */
export class DiskFullRefusal extends AppError {
  constructor() {
    super(ErrorCode.LIMIT_EXCEEDED, 'error.telemetry.diskFull', {}, { status: 507 });
  }
}

/** Any other write refused for want of disk space (uploads, settings, accounts): 507, never a 500. */
export function diskFullError(): AppError {
  return new AppError(ErrorCode.LIMIT_EXCEEDED, 'error.diskFull', {}, { status: 507 });
}

/** A write that failed because the disk is full: SQLite's SQLITE_FULL or a file write's ENOSPC. */
export function isOutOfSpace(err: unknown): boolean {
  return isDiskFull(err) || (err as { code?: unknown } | null)?.code === 'ENOSPC';
}

/** SQLite's "database or disk is full" (SQLITE_FULL), from this thread or the history worker's. */
export function isDiskFull(err: unknown): boolean {
  const e = err as { code?: unknown; errcode?: unknown } | null;
  return e?.code === 'ERR_SQLITE_ERROR' && typeof e.errcode === 'number' && (e.errcode & 0xff) === SQLITE_FULL;
}
