/**
 * A pymodbus RTU slave behind a simulated DTU (tests/helpers/modbus-dtu.py) as a child process:
 * it connects to the gateway's TCP access port, registers with a string, and answers the RTU
 * requests it gets from the slave's datastore, whose registers the test sets and reads through
 * the script's stdin. Debian's python3-pymodbus is used (/usr/bin/python3 first: a python on PATH
 * from a version manager may lack it).
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { root } from '../../scripts/build.ts';

export type ModbusTable = 'hr' | 'ir' | 'co' | 'di';

export interface ModbusDtu {
  set(table: ModbusTable, address: number, value: number): Promise<void>;
  get(table: ModbusTable, address: number): Promise<number>;
  /** Everything the script printed on stderr (pymodbus' complaints). */
  errors(): string;
  stop(): Promise<void>;
}

export interface ModbusDtuOptions {
  port: number;
  registration: string;
  unit: number;
  host?: string;
}

const python = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';

export async function startModbusDtu(opts: ModbusDtuOptions): Promise<ModbusDtu> {
  const script = join(root, 'tests/helpers/modbus-dtu.py');
  const child: ChildProcessWithoutNullStreams = spawn(python, [script, opts.host ?? '127.0.0.1', String(opts.port), opts.registration, String(opts.unit)]);
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const lines = createInterface({ input: child.stdout });
  const waiting: ((line: string) => void)[] = [];
  const early: string[] = [];
  lines.on('line', (line) => {
    const next = waiting.shift();
    if (next) next(line);
    else early.push(line);
  });
  const nextLine = (): Promise<string> =>
    new Promise((resolve, reject) => {
      const queued = early.shift();
      if (queued !== undefined) return resolve(queued);
      const timer = setTimeout(() => reject(new Error(`modbus-dtu.py did not answer: ${stderr}`)), 10_000);
      waiting.push((line) => {
        clearTimeout(timer);
        resolve(line);
      });
    });
  const command = async (text: string): Promise<string> => {
    child.stdin.write(`${text}\n`);
    return nextLine();
  };

  const first = await nextLine();
  if (first !== 'connected') throw new Error(`modbus-dtu.py: ${first} ${stderr}`);
  return {
    async set(table, address, value) {
      const answer = await command(`set ${table} ${address} ${value}`);
      if (answer !== 'ok') throw new Error(`modbus-dtu.py set: ${answer}`);
    },
    async get(table, address) {
      const answer = await command(`get ${table} ${address}`);
      const match = /^value (-?\d+)$/.exec(answer);
      if (!match) throw new Error(`modbus-dtu.py get: ${answer}`);
      return Number(match[1]);
    },
    errors: () => stderr,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGTERM');
      await exited;
    },
  };
}
