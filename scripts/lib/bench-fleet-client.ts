/**
 * The parent's side of scripts/lib/bench-fleet.ts: starts the fleet process and sends it one
 * request at a time, each answered by one line.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { createInterface, type Interface } from 'node:readline';
import { root } from '../build.ts';
import type { ConnectReport, FleetRequest, FleetStats } from './bench-fleet.ts';

export class Fleet {
  /** Rejects when the process exits: one promise for every request, not a listener each. */
  private readonly exited: Promise<never>;

  private constructor(
    private readonly child: ChildProcessWithoutNullStreams,
    private readonly lines: Interface,
    private readonly stderr: () => string,
  ) {
    this.exited = once(child, 'exit').then(() => {
      throw new Error(`bench: the fleet process exited:\n${this.stderr()}`);
    });
    this.exited.catch(() => undefined);
  }

  static start(): Fleet {
    const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'scripts/lib/bench-fleet.ts')], { cwd: root });
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    return new Fleet(child, createInterface({ input: child.stdout }), () => err);
  }

  get pid(): number {
    return this.child.pid!;
  }

  /** Opens one connection per token, all at once; a device without CONNACK after `timeoutMs` counts as timed out. */
  connect(port: number, tokens: string[], opts: { timeoutMs: number; subscribe: boolean }): Promise<ConnectReport> {
    return this.request({ op: 'connect', port, tokens, ...opts }) as Promise<ConnectReport>;
  }

  async publish(rate: number): Promise<void> {
    await this.request({ op: 'publish', rate });
  }

  async pause(): Promise<void> {
    await this.request({ op: 'pause' });
  }

  stats(): Promise<FleetStats> {
    return this.request({ op: 'stats' }) as Promise<FleetStats>;
  }

  /** Closes every connection (the gateway sees them drop). */
  async disconnect(): Promise<void> {
    await this.request({ op: 'close' });
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null) return;
    this.child.stdin.end();
    await once(this.child, 'exit');
  }

  private async request(req: FleetRequest): Promise<unknown> {
    if (this.child.exitCode !== null) throw new Error(`bench: the fleet process exited:\n${this.stderr()}`);
    this.child.stdin.write(`${JSON.stringify(req)}\n`);
    const [line] = (await Promise.race([once(this.lines, 'line'), this.exited])) as [string];
    return JSON.parse(line);
  }
}
