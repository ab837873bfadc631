import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { makeApp, tempDir } from '../helpers/app.ts';
import { resetPasswordCommand } from '../../server/cli/reset-password.ts';
import { oneTimePassword } from '../../server/lib/one-time-password.ts';
import { meetsPasswordPolicy, hashPassword } from '../../server/lib/password.ts';
import { openDatabase } from '../../server/db/sqlite.ts';
import { UserRepository } from '../../server/modules/auth/user-repository.ts';
import { migrations } from '../../server/app.ts';

async function run(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const o = vi.spyOn(process.stdout, 'write').mockImplementation((s) => ((out += String(s)), true));
  const e = vi.spyOn(process.stderr, 'write').mockImplementation((s) => ((err += String(s)), true));
  try {
    const code = await resetPasswordCommand(args, {});
    return { code, out, err };
  } finally {
    o.mockRestore();
    e.mockRestore();
  }
}

describe('edge-console reset-password', () => {
  it('generates one-time passwords that meet the password policy', () => {
    for (let i = 0; i < 200; i++) expect(meetsPasswordPolicy(oneTimePassword())).toBe(true);
  });

  it('sets a one-time password that signs in, and the old password no longer does', async () => {
    const t = await makeApp();
    const db = openDatabase(join(t.dataDir, 'edge.db'), migrations);
    new UserRepository(db).create({ username: 'admin', passwordHash: await hashPassword('Old-pass1'), role: 'SYS_ADMIN', realName: 'admin' });
    db.close();

    const { code, out } = await run(['--username', 'admin', '--data-dir', t.dataDir]);
    expect(code).toBe(0);
    const password = /^\s{2}(\S+)$/m.exec(out)?.[1];
    expect(password).toBeDefined();

    const ok = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { username: 'admin', password } });
    expect(ok.statusCode).toBe(200);
    const old = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { username: 'admin', password: 'Old-pass1' } });
    expect(old.statusCode).toBe(401);
  });

  it('refuses an unknown user, a missing --username and a data dir without a database', async () => {
    const t = await makeApp();
    expect((await run(['--username', 'ghost', '--data-dir', t.dataDir])).code).toBe(1);
    expect((await run(['--data-dir', t.dataDir])).code).toBe(2);
    const empty = await run(['--username', 'admin', '--data-dir', tempDir()]);
    expect(empty.code).toBe(1);
    expect(empty.err).toContain('no database');
  });
});
