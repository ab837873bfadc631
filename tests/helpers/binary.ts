/**
 * Runs the built single-executable binary as a gateway would: a free port on loopback, a fresh
 * temporary data dir, and a wait for the first `GET /api/health` 200. Used by the e2e specs, the
 * binary CLI test and scripts/bench.ts (cold start, idle RSS). Imports nothing from vitest so the
 * bench can use it too: callers stop what they start (`await gateway.kill()`).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { binaryPath } from '../../scripts/binary.ts';
import { root } from '../../scripts/build.ts';
import { freePort } from '../../scripts/lib/free-port.ts';
import { E2E_TIMEOUT_MS } from './e2e-wait.ts';

export interface RunningBinary {
  /** `http://127.0.0.1:<port>` */
  url: string;
  port: number;
  dataDir: string;
  /** The first-boot setup code from `<dataDir>/setup-code`, or null once an administrator exists. */
  setupCode: string | null;
  pid: number;
  /** Milliseconds from spawn to the first health 200. */
  startupMs: number;
  /** Everything the process printed so far (stdout and stderr). */
  output(): string;
  /** SIGTERM, wait for the exit (SIGKILL after 5 s), delete the data dir unless it was given. */
  kill(): Promise<void>;
}

export interface StartOptions {
  binary?: string;
  /** Reuse a data dir (kept on stop); default a new temporary one (deleted on stop). */
  dataDir?: string;
  /** Extra flags, e.g. `['--upstream', url]`. */
  args?: string[];
  env?: NodeJS.ProcessEnv;
  timeoutMs?: number;
  /** A command the binary runs under (a shell sending stdout to a file, `unshare` …), binary and flags appended. */
  prefix?: string[];
  /** Where a path of the gateway's file system is seen from here, when it runs in its own mount namespace. */
  outside?: (pid: number, path: string) => string;
}

/** The x64 binary, built first (web, server, SEA) if it does not exist yet. */
export function ensureBinary(): string {
  const bin = binaryPath('x64');
  if (!existsSync(bin)) {
    const env = { ...process.env, PATH: `${join(root, 'node_modules/.bin')}:${process.env.PATH ?? ''}` };
    execFileSync('tsx', ['scripts/build.ts'], { cwd: root, env, stdio: 'inherit' });
    execFileSync('tsx', ['scripts/binary.ts', '--x64-only'], { cwd: root, env, stdio: 'inherit' });
  }
  return bin;
}

export { freePort };

/** One GET without keep-alive; resolves the status, or 0 while nothing listens. */
export function httpStatus(url: string): Promise<number> {
  return new Promise((resolve) => {
    const req = request(url, { agent: false }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', () => resolve(0));
    req.end();
  });
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

export async function startBinary(opts: StartOptions = {}): Promise<RunningBinary> {
  const binary = opts.binary ?? ensureBinary();
  const ownDataDir = !opts.dataDir;
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), 'edge-bin-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const args = ['--host', '127.0.0.1', '--port', String(port), '--mqtt-port', '0', '--tcp-port', '0', '--data-dir', dataDir, '--log-level', 'warn', ...(opts.args ?? [])];
  const started = performance.now();
  // An ephemeral TLS port as well, through the environment (which a binary built before the flag ignores).
  const env = { EDGE_MQTTS_PORT: '0', ...(opts.env ?? process.env) };
  const [command, ...commandArgs] = [...(opts.prefix ?? []), binary, ...args];
  const child = spawn(command!, commandArgs, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));

  const kill = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited(child);
      clearTimeout(timer);
    }
    if (ownDataDir) rmSync(dataDir, { recursive: true, force: true });
  };

  const deadline = started + (opts.timeoutMs ?? E2E_TIMEOUT_MS);
  let status = 0;
  while (status !== 200) {
    if (child.exitCode !== null || child.signalCode !== null) {
      await kill();
      throw new Error(`${binary} exited (${child.exitCode ?? child.signalCode}) before answering /api/health:\n${out}`);
    }
    if (performance.now() > deadline) {
      await kill();
      throw new Error(`${binary} did not answer /api/health within ${opts.timeoutMs ?? E2E_TIMEOUT_MS} ms:\n${out}`);
    }
    status = await httpStatus(`${url}/api/health`);
    if (status !== 200) await new Promise((r) => setTimeout(r, 1));
  }
  const startupMs = performance.now() - started;
  const codeFile = opts.outside ? opts.outside(child.pid!, join(dataDir, 'setup-code')) : join(dataDir, 'setup-code');
  const setupCode = existsSync(codeFile) ? readFileSync(codeFile, 'utf8').trim() : null;
  return { url, port, dataDir, setupCode, pid: child.pid!, startupMs, output: () => out, kill };
}
