/**
 * A real MQTT broker for the cloud link's tests and bench: Debian's mosquitto on a free loopback
 * port with a temporary configuration. `stop` then `resume` keeps the port and, as a cloud's
 * broker does, the persistent sessions (a cloud outage): a subscriber connected with
 * `clean: false` gets what was published while it was still reconnecting. `remove` stops it and
 * deletes its files.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { createConnection } from 'node:net';
import { join } from 'node:path';
import { freePort } from './free-port.ts';

export const MOSQUITTO = ['/usr/sbin/mosquitto', '/usr/bin/mosquitto'].find((p) => existsSync(p)) ?? 'mosquitto';

function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port }, () => {
      socket.destroy();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });
}

export class Mosquitto {
  private child: ChildProcess | null = null;
  private constructor(
    readonly port: number,
    private readonly configFile: string,
    private readonly dir: string,
  ) {}

  static async start(extraConfig: string[] = []): Promise<Mosquitto> {
    const port = await freePort();
    // `user`: started as root, mosquitto would drop to its own user, which cannot write the saved
    // sessions into this private temp dir (the outage would then forget every subscriber).
    // Its own temp dir (not tests/helpers/app.ts's): e2e specs must not load the server's modules.
    const dir = mkdtempSync(join(tmpdir(), 'mosquitto-'));
    const configFile = join(dir, 'mosquitto.conf');
    // `max_queued_messages 0`: the subscriber stands for the cloud's ingest, which keeps every
    // message. Mosquitto's default (1,000 queued per client) drops the rest without a word when the
    // subscriber falls behind, as one sharing a busy process with the gateway under test does while
    // a backlog drains at full speed: the test then blamed the gateway for the broker's drops.
    const lines = [`listener ${port} 127.0.0.1`, 'allow_anonymous true', 'persistence true', `persistence_location ${dir}/`, `user ${userInfo().username}`, 'max_queued_messages 0', ...extraConfig, ''];
    writeFileSync(configFile, lines.join('\n'));
    const broker = new Mosquitto(port, configFile, dir);
    await broker.resume();
    return broker;
  }

  get url(): string {
    return `mqtt://127.0.0.1:${this.port}`;
  }

  async resume(): Promise<void> {
    this.child = spawn(MOSQUITTO, ['-c', this.configFile], { stdio: 'ignore' });
    for (let i = 0; i < 100; i++) {
      if (await listening(this.port)) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`mosquitto did not listen on ${this.port}`);
  }

  /** Stops the broker; it keeps its port and saved sessions for `resume`. */
  async stop(): Promise<void> {
    const child = this.child;
    this.child = null;
    if (!child || child.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  }

  async remove(): Promise<void> {
    await this.stop();
    rmSync(this.dir, { recursive: true, force: true });
  }
}
