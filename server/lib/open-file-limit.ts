/**
 * The process's soft limit of open files (RLIMIT_NOFILE), which caps sockets, database files and
 * everything else the gateway holds open. Node has no API for it; Linux shows it in
 * /proc/self/limits. Node raises the soft limit to the hard one at start, so the value read here
 * is the one in force.
 */
import { readFileSync } from 'node:fs';

/** The soft "Max open files" of a /proc/<pid>/limits text; null when absent or unlimited. */
export function parseOpenFileLimit(limits: string): number | null {
  const match = /^Max open files\s+(\S+)/m.exec(limits);
  if (!match?.[1]) return null;
  const soft = Number(match[1]);
  return Number.isSafeInteger(soft) && soft > 0 ? soft : null;
}

/** This process's soft open-file limit, or null where it cannot be read (not Linux) or is unlimited. */
export function openFileLimit(): number | null {
  try {
    return parseOpenFileLimit(readFileSync('/proc/self/limits', 'utf8'));
  } catch {
    return null;
  }
}
