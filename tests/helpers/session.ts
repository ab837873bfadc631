/**
 * Signed-in users for tests: an administrator inserted straight into the app's database (no
 * first-boot setup needed), signed in through the real login call.
 */
import { join } from 'node:path';
import type { TokenPair } from '../../server/contract/auth.ts';
import type { App } from '../../server/app.ts';
import type { Role } from '../../server/contract/user.ts';
import { openDatabase } from '../../server/db/sqlite.ts';
import { hashPassword } from '../../server/lib/password.ts';
import { UserRepository, type UserRow } from '../../server/modules/auth/user-repository.ts';
import { makeApp, type TestApp } from './app.ts';
import { issueLicense, testLicenseKeys } from './license.ts';
import { activate } from './setup.ts';
import { migrations } from '../../server/app.ts';

export const ADMIN_USERNAME = 'admin';
export const ADMIN_PASSWORD = 'Admin#2024ok';

/** Inserts a user through a second connection to the app's database file. */
export async function createUser(
  t: TestApp,
  username: string,
  password: string,
  role: Role = 'SYS_ADMIN',
): Promise<UserRow> {
  const db = openDatabase(join(t.dataDir, 'edge.db'), migrations);
  try {
    return new UserRepository(db).create({ username, passwordHash: await hashPassword(password), role, realName: username });
  } finally {
    db.close();
  }
}

export async function signIn(app: App, username: string, password: string): Promise<TokenPair> {
  const res = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { username, password } });
  if (res.statusCode !== 200) throw new Error(`sign-in of ${username} failed: ${res.statusCode} ${res.body}`);
  return res.json() as TokenPair;
}

export function authHeader(token: string): { authorization: string } {
  return { authorization: `Bearer ${token}` };
}

export interface SignedIn extends TokenPair {
  user: UserRow;
  username: string;
  password: string;
}

/** A SYS_ADMIN created directly in the database and signed in. */
export async function createAdmin(t: TestApp, username = ADMIN_USERNAME, password = ADMIN_PASSWORD): Promise<SignedIn> {
  const user = await createUser(t, username, password, 'SYS_ADMIN');
  return { user, username, password, ...(await signIn(t.app, username, password)) };
}

/** An app trusting the shared test key, with a valid licence installed (no user yet). */
export async function makeLicensedApp(overrides: Parameters<typeof makeApp>[0] = {}): Promise<TestApp> {
  const keys = testLicenseKeys();
  const t = await makeApp({ ...overrides, embeddedLicenseKeys: [...(overrides.embeddedLicenseKeys ?? []), keys.publicKeyPem] });
  const res = await activate(t, { licFile: issueLicense({ privateKeyPem: keys.privateKeyPem }) });
  if (res.statusCode !== 200) throw new Error(`licence upload failed: ${res.statusCode} ${res.body}`);
  return t;
}

/** A licensed app with a signed-in administrator: what tests of licence-gated user routes need. */
export async function makeSignedInApp(): Promise<TestApp & { admin: SignedIn }> {
  const t = await makeLicensedApp();
  return { ...t, admin: await createAdmin(t) };
}
