/**
 * A small file system that really fills up, for tests of a full disk: a tmpfs mounted on a fresh
 * directory. As root (here and in CI) it is mounted for everyone to see; without root it is
 * mounted inside a user and mount namespace of the gateway's own (`unshare`), which this process
 * then reaches through `/proc/<pid>/root`. Either way the gateway writes to a disk of `size`.
 */
import { execFileSync } from 'node:child_process';
import { tempDir } from './app.ts';

export interface SmallDisk {
  /** Where the file system is mounted, as the gateway sees it. */
  dir: string;
  /** A command prefix for startBinary: runs the gateway on this disk with its stdout appended to `logFile`. */
  wrap: (logFile: string) => string[];
  /** `path` (under `dir`) as this process reaches it, `pid` being the gateway's. */
  outside: (pid: number, path: string) => string;
  /** Unmounts (when this process mounted it). */
  release: () => void;
}

/** EDGE_TEST_NAMESPACED_DISK=1 takes the path of a user without root, to check it as root. */
function canMount(): boolean {
  return process.getuid?.() === 0 && process.env.EDGE_TEST_NAMESPACED_DISK !== '1';
}

/** An empty tmpfs of `size` (e.g. `8m`). */
export function smallDisk(size: string): SmallDisk {
  const dir = tempDir('edge-small-disk-');
  if (canMount()) {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir], { stdio: 'ignore' });
    return {
      dir,
      wrap: (logFile) => ['sh', '-c', 'log="$0"; exec "$@" >>"$log"', logFile],
      outside: (_pid, path) => path,
      release: () => execFileSync('umount', ['-l', dir], { stdio: 'ignore' }),
    };
  }
  // The namespace (and its tmpfs) ends with the gateway: nothing to unmount.
  const script = `mount -t tmpfs -o size=${size} tmpfs "$1" && log="$0" && shift && exec "$@" >>"$log"`;
  return {
    dir,
    wrap: (logFile) => ['unshare', '--user', '--map-root-user', '--mount', 'sh', '-c', script, logFile, dir],
    outside: (pid, path) => `/proc/${pid}/root${path}`,
    release: () => {},
  };
}
