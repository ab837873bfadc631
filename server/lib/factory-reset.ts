/**
 * The factory reset's durable half. A reset is first written down as `<data-dir>/factory-reset.json`
 * (synced), and carried out when the data dir is next opened, before the database is: the running
 * process answers 202, closes every module and the database, and opens the data dir again
 * (server/main.ts restarts in-process). A power cut anywhere in between finishes the reset at the
 * next start instead of leaving half a gateway; one after the wipe repeats a wipe of a fresh one.
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileDurably } from './durable-file.ts';

export const FACTORY_RESET_FILE = 'factory-reset.json';

/**
 * What a reset removes: the database (users, devices, history, settings, the cloud link's settings
 * and cursors), uploads, the signing key and setup code, the generated MQTT TLS identity. What it
 * keeps: the device serial number (licences are bound to it), the process lock, and `network/`
 * (a reset must not cut off a remote gateway's only address). A module that keeps its own files
 * in the data dir adds them here.
 */
export const FACTORY_RESET_REMOVES = [
  'edge.db', 'edge.db-wal', 'edge.db-shm', 'edge.db-journal', 'edge.db-staging',
  'oss', 'secrets.json', 'setup-code', 'mqtts-key.pem', 'mqtts-cert.pem',
] as const;

/** Who asked for the reset, and the licence to install again afterwards. */
export interface FactoryResetRequest {
  requestedAt: number;
  username: string;
  sourceAddress: string;
  /** The installed `.lic` text when the licence is kept; null otherwise. */
  license: string | null;
}

/** Records a reset to carry out at the next opening of the data dir; synced before it returns. */
export function requestFactoryReset(dataDir: string, request: FactoryResetRequest): void {
  // Durably: the directory is synced after the rename too, or a power cut could forget the request.
  writeFileDurably(join(dataDir, FACTORY_RESET_FILE), JSON.stringify(request));
}

/**
 * Called with the data dir locked and the database closed: removes what a reset removes when a
 * reset is pending and answers its request (the record stays until `forgetFactoryReset`, after
 * the new database holds what the request carried over). Null when none is pending.
 */
export function carryOutFactoryReset(dataDir: string): FactoryResetRequest | null {
  const file = join(dataDir, FACTORY_RESET_FILE);
  if (!existsSync(file)) return null;
  let request: FactoryResetRequest;
  try {
    request = JSON.parse(readFileSync(file, 'utf8')) as FactoryResetRequest;
  } catch {
    // Unreadable (a disk fault): wiping is still what was asked; nothing is carried over.
    request = { requestedAt: Date.now(), username: '', sourceAddress: '', license: null };
  }
  for (const name of FACTORY_RESET_REMOVES) rmSync(join(dataDir, name), { recursive: true, force: true });
  return request;
}

/** The reset is complete: the record goes, so the next start is an ordinary one. */
export function forgetFactoryReset(dataDir: string): void {
  rmSync(join(dataDir, FACTORY_RESET_FILE), { force: true });
}
