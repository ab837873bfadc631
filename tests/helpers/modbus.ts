/**
 * Real Modbus slaves for tests: tests/helpers/modbus-slave.py (Debian python3-pymodbus) as a Modbus
 * TCP server or as an RTU-over-TCP DTU that connects to the gateway, with a line-per-command
 * control channel to set and read registers, stop serving or mute one unit. Free of vitest, so the
 * bench (scripts/lib/bench-modbus.ts) starts its slaves with it too.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createServer } from 'node:net';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const script = fileURLToPath(new URL('./modbus-slave.py', import.meta.url));
/** Debian's interpreter: python3-pymodbus is installed for it, not for other pythons on PATH. */
const PYTHON = '/usr/bin/python3';

type Table = 'hr' | 'ir' | 'co' | 'di';

const running: ChildProcessWithoutNullStreams[] = [];

export class ModbusSlave {
  private readonly replies: ((line: Record<string, unknown>) => void)[] = [];

  private constructor(private readonly child: ChildProcessWithoutNullStreams) {
    createInterface({ input: child.stdout }).on('line', (line) => this.replies.shift()?.(JSON.parse(line) as Record<string, unknown>));
  }

  /** Ends every slave process started (tests call it after each test). */
  static killAll(): void {
    for (const p of running.splice(0)) p.kill();
  }

  private static async start(args: string[]): Promise<ModbusSlave> {
    const child = spawn(PYTHON, [script, ...args]);
    running.push(child);
    const slave = new ModbusSlave(child);
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    await new Promise<void>((resolve, reject) => {
      slave.replies.push(() => resolve());
      child.once('exit', (code) => reject(new Error(`modbus-slave.py exited ${code}: ${stderr}`)));
    });
    return slave;
  }

  /** A Modbus TCP server on a free port of 127.0.0.1 serving `units`. */
  static async tcp(units: number[] = [1]): Promise<ModbusSlave & { port: number }> {
    const port = await freePort();
    const slave = await ModbusSlave.start(['tcp', String(port), units.join(',')]);
    return Object.assign(slave, { port });
  }

  /** `count` Modbus TCP servers (unit 1 each) on consecutive ports from `firstPort`, in one process. */
  static many(firstPort: number, count: number): Promise<ModbusSlave> {
    return ModbusSlave.start(['tcp-many', String(firstPort), String(count)]);
  }

  /** `count` REGISTER_SEND DTUs registering as ASCII `DTU000`, `DTU001`, … to `port`, each serving `units`. */
  static dtus(port: number, count: number, units: number[]): Promise<ModbusSlave> {
    return ModbusSlave.start(['dtu-many', `127.0.0.1:${port}`, String(count), units.join(',')]);
  }

  /** A DTU that connects to `port` and registers with `registration` the `auth` way. */
  static dtu(port: number, registration: Buffer, auth: string, units: number[]): Promise<ModbusSlave> {
    return ModbusSlave.start(['dtu', `127.0.0.1:${port}`, registration.toString('hex'), auth, units.join(',')]);
  }

  private command(cmd: Record<string, unknown>): Promise<Record<string, unknown>> {
    return new Promise((resolve) => {
      this.replies.push(resolve);
      this.child.stdin.write(`${JSON.stringify(cmd)}\n`);
    });
  }

  async set(unit: number, table: Table, address: number, values: (number | boolean)[]): Promise<void> {
    await this.command({ set: { unit, table, address, values } });
  }

  async get(unit: number, table: Table, address: number, count = 1): Promise<number[]> {
    return (await this.command({ get: { unit, table, address, count } })).values as number[];
  }

  async stop(): Promise<void> {
    await this.command({ stop: true });
  }

  async mute(unit: number): Promise<void> {
    await this.command({ mute: unit });
  }
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (address && typeof address === 'object' ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** Registers of a 32-bit float, big-endian words (ABCD). */
export function floatWords(value: number): [number, number] {
  const b = Buffer.alloc(4);
  b.writeFloatBE(value);
  return [b.readUInt16BE(0), b.readUInt16BE(2)];
}
