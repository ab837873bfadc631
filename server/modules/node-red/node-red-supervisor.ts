/**
 * The Node-RED runtime processes: one child per running instance (server/cli/node-red-runtime.ts),
 * its status, its last log lines, and a restart with backoff when it dies without being asked to.
 * Node-RED's code runs only in those children, never in the gateway.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import type { FastifyBaseLogger } from 'fastify';
import type { NodeRedStatus } from '../../contract/node-red.ts';
import { nodeRedEditorPath, nodeRedHttpPath } from '../../contract/node-red.ts';
import { RUNTIME_V8_FLAGS, runtimeCommand } from './node-red-launch.ts';
import { installPalette } from './node-red-palette-files.ts';
import { sampleUsage, type UsageSample } from './node-red-usage.ts';

const LOG_LINES = 200;
const STOP_GRACE_MS = 5_000;
const BACKOFF_MS = [1_000, 2_000, 5_000, 10_000, 30_000];
/** A runtime that ran this long before dying starts its backoff from the beginning again. */
const STABLE_MS = 60_000;
/** How often CPU and memory of the running instances are read from /proc. */
const USAGE_SAMPLE_MS = 5_000;

export interface RuntimeSpec {
  id: string;
  port: number;
  userDir: string;
  credentialSecret: string;
  /** The credential its edge-* palette nodes present to the gateway (node-red-palette.ts). */
  paletteSecret: string;
}

interface Runner {
  spec: RuntimeSpec;
  child: ChildProcess | null;
  status: NodeRedStatus;
  /** The header value only the proxy sends; new for every process. */
  proxyToken: string;
  wanted: boolean;
  startedAt: number;
  failures: number;
  retry: NodeJS.Timeout | null;
  log: string[];
  exited: Promise<void> | null;
  /** The latest /proc sample of the current process; null while none runs. */
  usage: UsageSample | null;
}

export interface SupervisorDeps {
  nodeRedDir: string;
  log: FastifyBaseLogger;
  /** Where the palette reaches the gateway over loopback (`http://127.0.0.1:<port>`), asked at each spawn. */
  gatewayUrl: () => string;
}

export class NodeRedSupervisor {
  private readonly runners = new Map<string, Runner>();

  constructor(private readonly deps: SupervisorDeps) {}

  /** Whether a runtime process of the instance is up (starting or running): its flows may be calling. */
  alive(id: string): boolean {
    const status = this.status(id);
    return status === 'RUNNING' || status === 'STARTING';
  }

  status(id: string): NodeRedStatus {
    return this.runners.get(id)?.status ?? 'STOPPED';
  }

  /** Memory and CPU of the runtime's process as last sampled, if it runs. */
  usage(id: string): { rssBytes?: number; cpuPercent?: number } {
    const runner = this.runners.get(id);
    if (!runner?.child || !runner.usage) return {};
    const { rssBytes, cpuPercent } = runner.usage;
    return cpuPercent === undefined ? { rssBytes } : { rssBytes, cpuPercent };
  }

  private sampler: NodeJS.Timeout | null = null;

  /** Samples every running process; the timer runs only while some runner has a process. */
  private sampleAll(): void {
    let alive = 0;
    for (const runner of this.runners.values()) {
      const pid = runner.child?.pid;
      runner.usage = pid ? sampleUsage(pid, runner.usage) : null;
      if (pid) alive += 1;
    }
    if (!alive && this.sampler) {
      clearInterval(this.sampler);
      this.sampler = null;
    }
  }

  logLines(id: string): string[] {
    return [...(this.runners.get(id)?.log ?? [])];
  }

  /** A line of the gateway's own in the instance's log (e.g. a rollback it undid). */
  note(id: string, line: string): void {
    const runner = this.runners.get(id);
    if (runner) this.append(runner, Buffer.from(`[edge-console] ${line}`));
  }

  /** Where the proxy sends an instance's requests and the token it adds; null unless RUNNING. */
  upstream(id: string): { port: number; token: string } | null {
    const runner = this.runners.get(id);
    return runner?.status === 'RUNNING' ? { port: runner.spec.port, token: runner.proxyToken } : null;
  }

  start(spec: RuntimeSpec): void {
    const existing = this.runners.get(spec.id);
    if (existing?.child) return;
    const runner: Runner = existing ?? { spec, child: null, status: 'STOPPED', proxyToken: '', wanted: true, startedAt: 0, failures: 0, retry: null, log: [], exited: null, usage: null };
    runner.spec = spec;
    runner.wanted = true;
    this.runners.set(spec.id, runner);
    this.spawn(runner);
  }

  async stop(id: string): Promise<void> {
    const runner = this.runners.get(id);
    if (!runner) return;
    runner.wanted = false;
    if (runner.retry) clearTimeout(runner.retry);
    runner.retry = null;
    const child = runner.child;
    if (child) {
      const kill = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
      child.kill('SIGTERM');
      await runner.exited;
      clearTimeout(kill);
    }
    this.setStatus(runner, 'STOPPED');
  }

  async forget(id: string): Promise<void> {
    await this.stop(id);
    this.runners.delete(id);
  }

  async stopAll(): Promise<void> {
    await Promise.all([...this.runners.keys()].map((id) => this.stop(id)));
  }

  private setStatus(runner: Runner, status: NodeRedStatus): void {
    runner.status = status;
  }

  private append(runner: Runner, chunk: Buffer): void {
    for (const line of chunk.toString('utf8').split('\n')) {
      if (!line.trim()) continue;
      runner.log.push(line);
    }
    if (runner.log.length > LOG_LINES) runner.log.splice(0, runner.log.length - LOG_LINES);
  }

  private spawn(runner: Runner): void {
    const { spec } = runner;
    mkdirSync(spec.userDir, { recursive: true, mode: 0o700 });
    installPalette(spec.userDir);
    runner.proxyToken = randomBytes(32).toString('base64url');
    const command = runtimeCommand();
    const editor = nodeRedEditorPath(spec.id);
    const args = [
      ...command.args,
      ...['--node-red-dir', this.deps.nodeRedDir, '--user-dir', spec.userDir, '--port', String(spec.port)],
      ...['--admin-root', editor, '--node-root', nodeRedHttpPath(spec.id), '--instance-id', spec.id],
    ];
    const env = {
      ...process.env,
      NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} ${RUNTIME_V8_FLAGS.join(' ')}`.trim(),
      EDGE_NODE_RED_CREDENTIAL_SECRET: spec.credentialSecret,
      EDGE_NODE_RED_PROXY_TOKEN: runner.proxyToken,
      EDGE_NODE_RED_PALETTE_SECRET: spec.paletteSecret,
      EDGE_NODE_RED_GATEWAY_URL: this.deps.gatewayUrl(),
    };
    const child = spawn(command.file, args, { env, stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
    runner.child = child;
    runner.startedAt = Date.now();
    runner.usage = child.pid ? sampleUsage(child.pid, null) : null;
    this.sampler ??= setInterval(() => this.sampleAll(), USAGE_SAMPLE_MS).unref();
    this.setStatus(runner, 'STARTING');
    child.stdout?.on('data', (chunk: Buffer) => this.append(runner, chunk));
    child.stderr?.on('data', (chunk: Buffer) => this.append(runner, chunk));
    child.on('message', (msg: { type?: string }) => {
      if (msg?.type === 'ready' && runner.child === child) this.setStatus(runner, 'RUNNING');
    });
    runner.exited = new Promise((resolve) => {
      // A process that could not be spawned emits only 'error'; one that ran emits 'exit'.
      const settle = (code: number | null, signal: NodeJS.Signals | null): void => {
        if (runner.child !== child) return resolve();
        runner.child = null;
        this.onExit(runner, code, signal);
        resolve();
      };
      child.once('exit', settle);
      child.once('error', (err) => {
        this.append(runner, Buffer.from(`spawn failed: ${err.message}`));
        settle(null, null);
      });
    });
  }

  private onExit(runner: Runner, code: number | null, signal: NodeJS.Signals | null): void {
    if (!runner.wanted) return;
    this.setStatus(runner, 'CRASHED');
    if (Date.now() - runner.startedAt > STABLE_MS) runner.failures = 0;
    const delay = BACKOFF_MS[Math.min(runner.failures, BACKOFF_MS.length - 1)]!;
    runner.failures += 1;
    this.deps.log.warn({ instance: runner.spec.id, code, signal, retryInMs: delay }, 'node-red instance exited; restarting');
    runner.retry = setTimeout(() => {
      runner.retry = null;
      if (runner.wanted && !runner.child) this.spawn(runner);
    }, delay);
    runner.retry.unref();
  }
}
