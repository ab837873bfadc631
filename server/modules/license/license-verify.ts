/**
 * Licence verification as pure functions: bytes, trusted keys, serial number and clock in, a
 * payload or the reason for refusal out. The service turns refusals into HTTP errors and the CLI
 * prints them, so both say the same thing.
 */
import { verify, type KeyObject } from 'node:crypto';
import Value from 'typebox/value';
import { LicenseFileSchema, LicensePayloadSchema, type LicenseFile, type LicensePayload } from '../../contract/license.ts';
import type { ErrorKey } from '../../contract/errors.ts';

/** Clock skew tolerated between the issuing machine and the gateway for `issuedAt`. */
export const ISSUED_AT_SKEW_MS = 5 * 60 * 1000;

export type LicenseRefusalKey = Extract<
  ErrorKey,
  | 'error.license.invalidFile'
  | 'error.license.untrustedKey'
  | 'error.license.badSignature'
  | 'error.license.wrongDevice'
  | 'error.license.expired'
  | 'error.license.notYetValid'
>;

export interface LicenseRefusal {
  ok: false;
  key: LicenseRefusalKey;
  params: Record<string, string>;
}

export type LicenseCheck =
  | {
      ok: true;
      payload: LicensePayload;
      /** The file's own fields only: what the gateway stores, whatever else the upload carried. */
      file: LicenseFile;
    }
  | LicenseRefusal;

function refuse(key: LicenseRefusalKey, params: Record<string, string> = {}): LicenseRefusal {
  return { ok: false, key, params };
}

/**
 * Checks what never changes for a given file, key set and device: format, signer, signature and
 * device binding. Used on upload and again at start-up for the stored licence (a key removed from
 * the trusted set, or a changed serial number, then counts as no licence).
 */
export function verifyLicenseFile(
  bytes: Buffer | string,
  trustedKeys: ReadonlyMap<string, KeyObject>,
  /** This gateway's serial number; null skips the binding check (the CLI's verify without --device). */
  deviceSn: string | null,
): LicenseCheck {
  let file: unknown;
  try {
    file = JSON.parse(typeof bytes === 'string' ? bytes : bytes.toString('utf8'));
  } catch {
    return refuse('error.license.invalidFile');
  }
  if (!Value.Check(LicenseFileSchema, file)) return refuse('error.license.invalidFile');

  const key = trustedKeys.get(file.keyId.toLowerCase());
  if (!key) return refuse('error.license.untrustedKey');

  let signed = false;
  try {
    signed = verify(null, Buffer.from(file.payload, 'utf8'), key, Buffer.from(file.signature, 'base64'));
  } catch {
    signed = false;
  }
  if (!signed) return refuse('error.license.badSignature');

  let payload: unknown;
  try {
    payload = JSON.parse(file.payload);
  } catch {
    return refuse('error.license.invalidFile');
  }
  // A correctly signed payload of the wrong shape comes from a broken issuer, not a tamperer.
  if (!Value.Check(LicensePayloadSchema, payload)) return refuse('error.license.invalidFile');

  if (deviceSn !== null && payload.device !== '*' && payload.device !== deviceSn) {
    return refuse('error.license.wrongDevice', { deviceSn });
  }
  const { format, signature, keyId } = file;
  return { ok: true, payload, file: { format, payload: file.payload, signature, keyId } };
}

/** Checks the licence term against the clock: expired, or issued in the future beyond the skew; null when it holds. */
export function checkLicenseTerm(payload: LicensePayload, now: number): LicenseRefusal | null {
  if (payload.expiresAt <= now) return refuse('error.license.expired');
  if (payload.issuedAt > now + ISSUED_AT_SKEW_MS) return refuse('error.license.notYetValid');
  return null;
}

/** Everything an upload must pass: the file checks, then the term. */
export function verifyLicense(
  bytes: Buffer | string,
  trustedKeys: ReadonlyMap<string, KeyObject>,
  deviceSn: string | null,
  now: number,
): LicenseCheck {
  const checked = verifyLicenseFile(bytes, trustedKeys, deviceSn);
  if (!checked.ok) return checked;
  return checkLicenseTerm(checked.payload, now) ?? checked;
}
