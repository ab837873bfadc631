/**
 * The gateway's serial number, which licences are bound to. It must be stable across restarts and
 * reinstalls of the binary, so it comes from the configuration, else the OS machine id, else a
 * random one kept in the data dir.
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const MACHINE_ID_FILES = ['/etc/machine-id', '/var/lib/dbus/machine-id'];

export interface DeviceSnSources {
  /** `--device-sn` / EDGE_DEVICE_SN. */
  configured: string | null;
  dataDir: string;
  /** Where to look for the machine id; tests point this at temporary files. */
  machineIdFiles?: readonly string[];
}

function readMachineId(files: readonly string[]): string | null {
  for (const file of files) {
    try {
      const id = readFileSync(file, 'utf8').trim();
      if (/^[0-9a-fA-F]{16,}$/.test(id)) return id;
    } catch {
      // Not there (containers often lack it): try the next source.
    }
  }
  return null;
}

/** Derived, not the machine id itself: the machine id is meant to stay private to the host. */
function fromMachineId(machineId: string): string {
  return `EC-${createHash('sha256').update(machineId.toLowerCase()).digest('hex').slice(0, 12).toUpperCase()}`;
}

export function resolveDeviceSn(sources: DeviceSnSources): string {
  const configured = sources.configured?.trim();
  if (configured) return configured;
  const machineId = readMachineId(sources.machineIdFiles ?? MACHINE_ID_FILES);
  if (machineId) return fromMachineId(machineId);
  const file = join(sources.dataDir, 'device-sn');
  if (existsSync(file)) {
    const stored = readFileSync(file, 'utf8').trim();
    if (stored) return stored;
  }
  const generated = `EC-${randomBytes(6).toString('hex').toUpperCase()}`;
  writeFileSync(file, `${generated}\n`, { mode: 0o600 });
  return generated;
}
