/**
 * Redacts the credential fields of an answer (server/contract/secrets.ts) for a role that may not
 * read them. Shared by the HTTP answers (server/plugins/secrets.ts) and the websocket's
 * (server/modules/realtime/ws-session.ts), so a field is hidden wherever it travels.
 */
import { roleHolds } from '../contract/permissions.ts';
import { secretFields } from '../contract/secrets.ts';
import type { Role } from '../contract/user.ts';

const names = Object.keys(secretFields);

/** The secret fields `role` may not read (empty: it reads them all). */
export function hiddenFieldsOf(role: Role): ReadonlySet<string> {
  return new Set(names.filter((name) => !roleHolds(role, secretFields[name]!.permission)));
}

/** Whether a schema or JSON text names one of the secret fields (as a quoted key). */
export function mentionsSecret(text: string): boolean {
  return names.some((name) => text.includes(`"${name}"`));
}

/** `value` with every field in `hidden`, at any depth, replaced by its redacted value (a copy; `value` is left alone). */
export function redactSecrets<T>(value: T, hidden: ReadonlySet<string>): T {
  if (!hidden.size || typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map((item: unknown) => redactSecrets(item, hidden)) as T;
  // Objects with a JSON form of their own (dates, buffers) are not walked.
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return value;
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    copy[key] = hidden.has(key) && item !== null && item !== '' ? secretFields[key]!.redacted : redactSecrets(item, hidden);
  }
  return copy as T;
}
