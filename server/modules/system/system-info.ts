/** What the machine says about itself for the basic-info tab: uptime, CPU, data-dir size. */
import { readFileSync } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { cpus, networkInterfaces, uptime } from 'node:os';

/** Seconds since the machine booted: /proc/uptime, or the OS's own count where there is none. */
export function machineUptimeS(): number {
  try {
    const seconds = Number(readFileSync('/proc/uptime', 'utf8').split(' ')[0]);
    if (Number.isFinite(seconds)) return Math.floor(seconds);
  } catch {
    // Not Linux.
  }
  return Math.floor(uptime());
}

export function cpuDescription(): { cores: number; model: string } {
  const list = cpus();
  return { cores: Math.max(1, list.length), model: list[0]?.model.trim() ?? '' };
}

/** Bytes of every file under `dir` (allocated size is what fills a disk, so blocks are counted). */
export async function directoryBytes(dir: string): Promise<number> {
  let total = 0;
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return 0;
  }
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) total += await directoryBytes(path);
    else if (entry.isFile()) {
      // A file removed meanwhile (a WAL checkpoint, a temporary upload) counts as nothing.
      const s = await stat(path).catch(() => null);
      if (s) total += s.blocks * 512;
    }
  }
  return total;
}

/** "1.2.3+abc1234" (scripts/build.ts) → the version and the commit; no commit in a development run. */
export function splitVersion(version: string): { version: string; commit: string | null } {
  const plus = version.indexOf('+');
  return plus < 0 ? { version, commit: null } : { version: version.slice(0, plus), commit: version.slice(plus + 1) };
}

/** Every external IPv4 address of the machine, by interface. */
export function ipv4Addresses(): { interface: string; address: string; netmask: string; mac: string }[] {
  return Object.entries(networkInterfaces()).flatMap(([name, list]) =>
    (list ?? []).filter((nic) => nic.family === 'IPv4' && !nic.internal).map((nic) => ({ interface: name, address: nic.address, netmask: nic.netmask, mac: nic.mac })),
  );
}
