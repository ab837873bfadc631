/**
 * `edge-console reset-password --username NAME [--data-dir DIR]`: the recovery path for a forgotten
 * password. It needs shell access to the gateway (whoever has that owns the device anyway), sets a
 * random one-time password that meets the policy, and revokes every session of that user.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { openDatabase } from '../db/sqlite.ts';
import { UserRepository } from '../modules/auth/user-repository.ts';
import { RefreshTokenRepository } from '../modules/auth/refresh-repository.ts';
import { hashPassword, meetsPasswordPolicy } from '../lib/password.ts';
import { defaults } from '../config.ts';
import { oneTimePassword } from '../lib/one-time-password.ts';
import { migrations } from '../app.ts';


export const resetPasswordUsage = 'Usage: edge-console reset-password --username NAME [--data-dir DIR]';

/** Returns the process exit code. */
export async function resetPasswordCommand(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  let username: string | undefined;
  let dataDir = env.EDGE_DATA_DIR || defaults.dataDir;
  for (let i = 0; i < args.length; i++) {
    const [flag, inline] = args[i]!.split(/=(.*)/s);
    const value = inline ?? args[i + 1];
    if (flag === '--username') { username = value; if (inline === undefined) i++; }
    else if (flag === '--data-dir') { dataDir = value ?? dataDir; if (inline === undefined) i++; }
    else if (flag === '--help' || flag === '-h') { process.stdout.write(`${resetPasswordUsage}\n`); return 0; }
    else { process.stderr.write(`reset-password: unknown option ${args[i]}\n${resetPasswordUsage}\n`); return 2; }
  }
  if (!username) {
    process.stderr.write(`reset-password: --username is required\n${resetPasswordUsage}\n`);
    return 2;
  }
  const file = join(resolve(dataDir), 'edge.db');
  if (!existsSync(file)) {
    process.stderr.write(`reset-password: no database at ${file} (wrong --data-dir?)\n`);
    return 1;
  }
  const db = openDatabase(file, migrations);
  try {
    const users = new UserRepository(db);
    const user = users.findByUsername(username);
    if (!user) {
      process.stderr.write(`reset-password: no user named ${username}\n`);
      return 1;
    }
    const password = oneTimePassword();
    if (!meetsPasswordPolicy(password)) throw new Error('generated password misses the policy');
    users.updatePassword(user.id, await hashPassword(password));
    // Sessions of a user whose password was reset must end, as after a change in the console.
    new RefreshTokenRepository(db).deleteForUser(user.id);
    process.stdout.write(
      `Password of ${user.username} reset. One-time password:\n\n  ${password}\n\nSign in with it and change it at once (user menu → change password).\n`,
    );
    return 0;
  } finally {
    db.close();
  }
}
