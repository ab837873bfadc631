/**
 * The data dir at start: one gateway process per data dir, and a data dir the gateway cannot write
 * stops the start with one line naming the path. Process-level behaviour (exit codes, SIGKILL)
 * runs server/main.ts from source as its own process.
 */
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeApp, tempDir } from '../helpers/app.ts';
import { startBinary, type RunningBinary } from '../helpers/binary.ts';
import { sourceServer } from '../helpers/source-server.ts';

const running: RunningBinary[] = [];
afterEach(async () => {
  while (running.length) await running.pop()!.kill();
});

interface Exit {
  /** null: still running when the wait ended (it was killed then). */
  code: number | null;
  stderr: string;
}

/** Runs the gateway with `dataDir` and waits for it to exit on its own, at most `waitMs`. */
function runUntilExit(server: string, dataDir: string, opts: { prefix?: string[]; waitMs?: number } = {}): Promise<Exit> {
  const args = ['--host', '127.0.0.1', '--port', '0', '--mqtt-port', '0', '--mqtts-port', 'off', '--tcp-port', '0', '--data-dir', dataDir, '--log-level', 'warn'];
  const [command, ...rest] = [...(opts.prefix ?? []), server, ...args];
  const child = spawn(command!, rest, { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      resolve({ code: null, stderr });
    }, opts.waitMs ?? 30_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    });
  });
}

function expectOneLineNaming(exit: Exit, path: string, reason: RegExp): void {
  expect(exit.code, exit.stderr).toBe(1);
  const lines = exit.stderr.trim().split('\n');
  expect(lines, exit.stderr).toHaveLength(1);
  expect(lines[0]).toContain(path);
  expect(lines[0]).toMatch(reason);
}

/** As root, permission bits bind only without CAP_DAC_OVERRIDE: run the gateway without it. */
function withoutOverride(): string[] | null {
  if (process.getuid?.() !== 0) return [];
  try {
    execFileSync('setpriv', ['--version'], { stdio: 'ignore' });
  } catch {
    return null;
  }
  return ['setpriv', '--bounding-set=-dac_override,-dac_read_search', '--inh-caps=-dac_override,-dac_read_search'];
}

describe('one gateway per data dir', () => {
  it('refuses a second app on a data dir in use, naming the data dir, and starts again once the first has closed', async () => {
    const first = await makeApp();
    await expect(makeApp({ dataDir: first.dataDir })).rejects.toThrow(new RegExp(`data dir ${first.dataDir} is in use`));
    await first.app.close();
    const again = await makeApp({ dataDir: first.dataDir });
    expect((await again.app.inject({ url: '/api/health' })).statusCode).toBe(200);
  });

  it('lets a second connection read edge.db while the gateway runs (tests and reset-password do)', async () => {
    const t = await makeApp();
    const { DatabaseSync } = await import('node:sqlite');
    const db = new DatabaseSync(join(t.dataDir, 'edge.db'));
    expect(db.prepare('SELECT COUNT(*) AS n FROM schema_migration').get()).toMatchObject({ n: expect.any(Number) });
    db.close();
  });

  it('makes a second gateway process exit 1 with one line naming the data dir; a SIGKILLed first one leaves it free', { timeout: 120_000 }, async () => {
    const dir = tempDir('edge-lock-');
    const server = sourceServer(dir);
    const dataDir = join(dir, 'data');
    const first = await startBinary({ binary: server, dataDir, timeoutMs: 60_000 });
    running.push(first);

    expectOneLineNaming(await runUntilExit(server, dataDir), dataDir, /in use by another edge-console process/);

    process.kill(first.pid, 'SIGKILL');
    await first.kill();
    const third = await startBinary({ binary: server, dataDir, timeoutMs: 60_000 });
    running.push(third);
  });
});

describe('a data dir the gateway cannot use', () => {
  it('exits 1 with one line naming the data dir when its path is a file', { timeout: 60_000 }, async () => {
    const dir = tempDir('edge-datadir-');
    const dataDir = join(dir, 'data');
    writeFileSync(dataDir, 'not a directory');
    expectOneLineNaming(await runUntilExit(sourceServer(dir), dataDir), dataDir, /not a directory/);
  });

  it('names the database file when edge.db cannot be opened', async () => {
    const dataDir = tempDir();
    mkdirSync(join(dataDir, 'edge.db'));
    await expect(makeApp({ dataDir })).rejects.toThrow(`cannot open the database ${join(dataDir, 'edge.db')}`);
  });

  const prefix = withoutOverride();
  it.skipIf(prefix === null)('exits 1 with one line naming a read-only data dir, on first boot and on a restart', { timeout: 120_000 }, async () => {
    const dir = tempDir('edge-readonly-');
    const server = sourceServer(dir);

    const fresh = join(dir, 'fresh');
    mkdirSync(fresh, { mode: 0o500 });
    chmodSync(fresh, 0o500);
    expectOneLineNaming(await runUntilExit(server, fresh, { prefix: prefix! }), fresh, /not writable/);

    const used = join(dir, 'used');
    const before = await makeApp({ dataDir: used });
    await before.app.close();
    chmodSync(used, 0o500);
    try {
      expectOneLineNaming(await runUntilExit(server, used, { prefix: prefix! }), used, /not writable/);
    } finally {
      // Writable again, so the temporary dir can be deleted by a user without override too.
      chmodSync(used, 0o700);
    }
  });
});
