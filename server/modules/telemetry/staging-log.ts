/**
 * The staged history values on disk (issue 26, "Flash wear"): an append-only ring file beside the
 * database (`<database>-staging`), one record per commit holding that commit's pack
 * (staging-pack.ts), each record starting on a 4 KiB boundary and padded to one.
 *
 * Why not a table: a synced commit costs what it dirties at the kernel's 4 KiB granularity. A
 * SQLite commit in WAL mode writes at least one 4,120 B frame (two kernel pages) and, as the table
 * grows, the header page, a pointer-map page and an interior page, then writes the pages again at
 * the checkpoint: ~11 KB per commit, ~300 B per message of a fleet of 100 devices × 1 msg/s
 * (docs/PERFORMANCE-FINDINGS.md). A record here dirties exactly its pages (one for up to ~4,000 B,
 * i.e. a commit of ~250 two-value messages), is never checkpointed, and never shares a page with
 * an acknowledged record, so a torn write can only damage the record that was not acknowledged yet.
 *
 * Records move into history blocks in the database (staging-mover.ts), which stores the highest
 * sequence moved (`ts_staging_moved`, migration 0048) in the same transaction as the blocks. The
 * ring is rewritten from its start only once everything in it is moved; until then it grows. It is
 * filled with zeros once, when created, so that later writes allocate nothing (a write into a
 * hole or past the end also makes the file system journal its metadata at each sync).
 *
 * `appendStagingRecord` also runs in the history worker (history-worker.ts embeds its source
 * text): it must not name anything outside its own body and arguments.
 */
import { closeSync, existsSync, fstatSync, fsyncSync, openSync, readSync, writeSync, fdatasyncSync } from 'node:fs';
import { crc32 } from 'node:zlib';

/** Bytes a new ring file is given (and rewritten within): a minute of a 1,000-device fleet's commits, about. */
export const STAGING_RING_BYTES = 2 * 1024 * 1024;
/** The page a record starts on and is padded to. */
export const STAGING_PAGE = 4096;
/** Record header: magic, payload length, sequence, value count, crc32, min ts, max ts. */
export const STAGING_HEADER = 40;
const MAGIC = 0x4c474445; // "EDGL" little-endian

/**
 * The ring's shared position, a Float64Array over a SharedArrayBuffer so that the main thread and
 * the history worker (which take turns, never writing at once) continue one another.
 */
export const RING = { pos: 0, nextSeq: 1, movedUpTo: 2, size: 3, lastSeq: 4, length: 5 } as const;

/** Where one record went. */
export interface AppendedRecord {
  seq: number;
  offset: number;
}

/** The file and checksum calls the writer needs, given so that the worker can pass its own. */
export interface RingIo {
  writeSync(fd: number, buf: Uint8Array, offset: number, length: number, position: number): number;
  fdatasyncSync(fd: number): void;
  crc32(data: Uint8Array, value?: number): number;
}

/**
 * Appends one record (a pack of `count` values, ts from `minTs` to `maxTs`) and syncs it: when this
 * returns, the values survive a power cut. Self-contained: the worker runs its source text.
 */
export function appendStagingRecord(io: RingIo, fd: number, ring: Float64Array, pack: { data: Uint8Array; count: number; minTs: number; maxTs: number }): AppendedRecord {
  const page = 4096;
  const header = 40;
  const length = Math.ceil((header + pack.data.length) / page) * page;
  const buf = new Uint8Array(length);
  const view = new DataView(buf.buffer);
  const seq = ring[1]!;
  view.setUint32(0, 0x4c474445, true);
  view.setUint32(4, pack.data.length, true);
  view.setFloat64(8, seq, true);
  view.setUint32(16, pack.count, true);
  view.setFloat64(24, pack.minTs, true);
  view.setFloat64(32, pack.maxTs, true);
  buf.set(pack.data, header);
  view.setUint32(20, io.crc32(buf.subarray(0, header + pack.data.length)), true);
  let pos = ring[0]!;
  // Back to the start only when everything written is moved; else the file grows (rarely: a move
  // is due long before the ring is full).
  if (pos + length > ring[3]!) {
    if (ring[2]! >= ring[4]!) pos = 0;
    else ring[3] = pos + length;
  }
  if (pos + length > ring[3]!) ring[3] = pos + length;
  for (let done = 0; done < length; ) done += io.writeSync(fd, buf, done, length - done, pos + done);
  io.fdatasyncSync(fd);
  ring[0] = pos + length;
  ring[1] = seq + 1;
  ring[4] = seq;
  return { seq, offset: pos };
}

/** The io of this thread. */
export const ringIo: RingIo = { writeSync, fdatasyncSync, crc32 };

/** A record read back from the ring. */
export interface RingRecord {
  seq: number;
  offset: number;
  end: number;
  count: number;
  minTs: number;
  maxTs: number;
  data: Uint8Array;
}

/**
 * Opens (creating and zero-filling when missing) the ring at `path` and reads back every intact
 * record. A record whose checksum fails was being written when the process stopped: it was never
 * acknowledged, and it is skipped. Records of an earlier lap are returned too; the caller keeps
 * those above the moved mark.
 */
export function openStagingRing(path: string): { fd: number; size: number; records: RingRecord[] } {
  if (!existsSync(path)) createRing(path);
  const fd = openSync(path, 'r+');
  const size = fstatSync(fd).size;
  const file = new Uint8Array(size);
  for (let done = 0; done < size; ) {
    const n = readSync(fd, file, done, size - done, done);
    if (n === 0) break;
    done += n;
  }
  return { fd, size, records: readRecords(file) };
}

function readRecords(file: Uint8Array): RingRecord[] {
  const view = new DataView(file.buffer, file.byteOffset, file.byteLength);
  const records: RingRecord[] = [];
  for (let at = 0; at + STAGING_HEADER <= file.length; ) {
    const record = view.getUint32(at, true) === MAGIC ? recordAt(file, view, at) : null;
    if (record) records.push(record);
    at = record ? record.end : at + STAGING_PAGE;
  }
  return records;
}

function recordAt(file: Uint8Array, view: DataView, at: number): RingRecord | null {
  const length = view.getUint32(at + 4, true);
  if (at + STAGING_HEADER + length > file.length) return null;
  const stored = view.getUint32(at + 20, true);
  const copy = file.slice(at, at + STAGING_HEADER + length);
  new DataView(copy.buffer).setUint32(20, 0, true);
  if (crc32(copy) !== stored) return null;
  return {
    seq: view.getFloat64(at + 8, true),
    offset: at,
    end: at + Math.ceil((STAGING_HEADER + length) / STAGING_PAGE) * STAGING_PAGE,
    count: view.getUint32(at + 16, true),
    minTs: view.getFloat64(at + 24, true),
    maxTs: view.getFloat64(at + 32, true),
    data: copy.slice(STAGING_HEADER),
  };
}

/**
 * A ring of zeros, synced with its directory entry before any record relies on it. Written a page
 * at a time: a large write leaves large folios in the page cache, and Linux then counts a 4 KiB
 * record written into one as writing the whole folio (/proc/<pid>/io `write_bytes` showed 256 KiB
 * per record after 256 KiB writes, while the disk received 4 KiB: docs/PERFORMANCE-FINDINGS.md).
 */
function createRing(path: string): void {
  const fd = openSync(path, 'wx');
  try {
    const zeros = new Uint8Array(STAGING_PAGE);
    for (let at = 0; at < STAGING_RING_BYTES; at += zeros.length) writeSync(fd, zeros, 0, zeros.length, at);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  const dir = openSync(path.slice(0, Math.max(1, path.lastIndexOf('/'))), 'r');
  try {
    fsyncSync(dir);
  } finally {
    closeSync(dir);
  }
}
