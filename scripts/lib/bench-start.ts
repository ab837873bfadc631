/**
 * The first start of the bench's gateways (the one that provisions them): the binary's pages are
 * first dropped from the page cache (GNU dd's `iflag=nocache count=0`), so it starts as after a
 * reboot, reading itself from disk; the starts measured after it find the binary's pages as a
 * start reads them.
 *
 * Why: RSS counts the file-backed pages the start maps, and how many it maps depends on how the
 * binary got into the page cache, not on the binary. The kernel maps a whole page-cache folio at a
 * fault, and a file just written by the build, or read whole (the `sizes` group compresses it),
 * sits in large folios: the same binary then read 70-85 MB file-backed at idle, against 54-57 MB
 * when its pages came in through the start's own reads (docs/PERFORMANCE-FINDINGS.md, "The
 * young generation after start-up, and the page cache"). The cold-start rows keep the page cache
 * as it is (their starts come first, or alone): their figure is time, and a read from disk would
 * measure the disk.
 */
import { execFileSync } from 'node:child_process';
import { startBinary, type RunningBinary, type StartOptions } from '../../tests/helpers/binary.ts';

export function dropFromPageCache(file: string): void {
  execFileSync('dd', [`if=${file}`, 'iflag=nocache', 'count=0', 'status=none']);
}

export async function startAfterReboot(opts: StartOptions & { binary: string }): Promise<RunningBinary> {
  dropFromPageCache(opts.binary);
  return startBinary(opts);
}
