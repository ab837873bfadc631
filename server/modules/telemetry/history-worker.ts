/**
 * Commits batches of device data on a worker thread with its own SQLite connection, so that at
 * high message rates the main thread parses and acknowledges the next batch while this one is
 * written (SQLite was a third of the main thread's time per message). A batch's callback runs
 * only after the worker's COMMIT returned: the PUBACK still waits for the data to be on disk.
 *
 * The worker runs from source text (no second file to ship in the single executable): it only
 * executes the statements of telemetry-write-sql.ts, handed over in workerData, on values packed
 * here into a Float64Array (moved, not copied) plus the few strings a batch names.
 */
import type { SQLInputValue } from 'node:sqlite';
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import { WAL_AUTOCHECKPOINT_PAGES } from '../../db/sqlite.ts';
import type { FailureOrigin } from './commit-failure.ts';
import { ValueType, encodeValue } from './stored-value.ts';
import { encodeStagedPack, PACK_VALUES } from './staging-pack.ts';
import { appendStagingRecord } from './staging-log.ts';
import type { RingHandle, StagedPack } from './staging-ring.ts';
import { CLIENT_SCOPE, type AttributeRow, type EventRecordRow, type TelemetryRow } from './telemetry-rows.ts';
import { attributeParams, eventParams, writeSql } from './telemetry-write-sql.ts';

/** What one batch holds, as the writer queues it. */
export interface BatchJob {
  deviceId: string;
  telemetry?: readonly TelemetryRow[];
  attributes?: readonly AttributeRow[];
  events?: readonly EventRecordRow[];
  /** The device was deleted: its latest values, attributes and history go, after the rest of the batch. */
  purge?: boolean;
}

/** Numbers per stored value in `PackedBatch.values`: series pair, ts, value type, number value (NaN: none). */
const STRIDE = 4;

export interface PackedBatch {
  /**
   * deviceId, key, deviceId, key, …: series named for the first time, appended to the worker's
   * list that values name by index (names cross once, not with every batch).
   */
  newPairs: string[];
  values: Float64Array<ArrayBuffer>;
  /** Value index → text value (strings and JSON) and → flag; most batches have neither. */
  texts: Record<number, string> | null;
  flags: Record<number, string> | null;
  attributes: SQLInputValue[][];
  events: SQLInputValue[][];
  purge: string[];
}

/** Series names the worker knows, by the index values use. */
export class PairTable {
  private readonly pairs = new Map<string, Map<string, number>>();
  private size = 0;

  keysOf(deviceId: string): Map<string, number> {
    let keys = this.pairs.get(deviceId);
    if (!keys) {
      keys = new Map();
      this.pairs.set(deviceId, keys);
    }
    return keys;
  }

  add(keys: Map<string, number>, key: string): number {
    const pair = this.size++;
    keys.set(key, pair);
    return pair;
  }

  /** Takes back the names of `newPairs` from `from` on, the last ones added: their batch will not name them. */
  dropSince(newPairs: readonly string[], from: number): void {
    for (let at = from; at < newPairs.length; at += 2) {
      this.pairs.get(newPairs[at]!)?.delete(newPairs[at + 1]!);
      this.size--;
    }
  }
}

/** A batch for the worker, and the jobs (by index) that could not be packed, with why. */
export interface Packed {
  batch: PackedBatch;
  refused: Map<number, Error> | null;
}

/**
 * Packs `jobs` for the worker. A job whose values cannot be encoded (JSON.stringify throws) is left
 * out and reported in `refused`, everything it had added taken back, so one message cannot fail
 * the batch and the worker's list of series names stays the one `table` describes.
 */
export function packBatch(jobs: readonly BatchJob[], table: PairTable): Packed {
  let count = 0;
  for (const job of jobs) if (job.telemetry) count += job.telemetry.length;
  const values = new Float64Array(count * STRIDE);
  const batch: PackedBatch = { newPairs: [], values, texts: null, flags: null, attributes: [], events: [], purge: [] };
  let refused: Map<number, Error> | null = null;
  let i = 0;
  for (let j = 0; j < jobs.length; j++) {
    const job = jobs[j]!;
    const pairsBefore = batch.newPairs.length;
    const attributesBefore = batch.attributes.length;
    const eventsBefore = batch.events.length;
    try {
      i = packJob(job, table, batch, i);
    } catch (err) {
      // The next job's values take this one's places, which must not keep its texts or flags.
      table.dropSince(batch.newPairs, pairsBefore);
      batch.newPairs.length = pairsBefore;
      batch.attributes.length = attributesBefore;
      batch.events.length = eventsBefore;
      for (let at = i; at < i + (job.telemetry?.length ?? 0); at++) {
        if (batch.texts) delete batch.texts[at];
        if (batch.flags) delete batch.flags[at];
      }
      (refused ??= new Map()).set(j, err as Error);
    }
  }
  // The worker reads every value the array holds.
  if (i * STRIDE < values.length) batch.values = values.slice(0, i * STRIDE);
  return { batch, refused };
}

/** Appends one job's values from index `i` on; returns the next free index. */
function packJob(job: BatchJob, table: PairTable, batch: PackedBatch, i: number): number {
  const { values } = batch;
  if (job.telemetry) {
    const keys = table.keysOf(job.deviceId);
    for (const row of job.telemetry) {
      let pair = keys.get(row.key);
      if (pair === undefined) {
        pair = table.add(keys, row.key);
        batch.newPairs.push(job.deviceId, row.key);
      }
      const at = i * STRIDE;
      values[at] = pair;
      values[at + 1] = row.ts;
      if (typeof row.value === 'number') {
        values[at + 2] = ValueType.NUMBER;
        values[at + 3] = row.value;
      } else {
        const v = encodeValue(row.value);
        values[at + 2] = v.valueType;
        values[at + 3] = v.numValue ?? Number.NaN;
        if (v.textValue !== null) (batch.texts ??= {})[i] = v.textValue;
      }
      if (row.flag) (batch.flags ??= {})[i] = row.flag;
      i++;
    }
  }
  if (job.attributes) for (const a of job.attributes) batch.attributes.push(attributeParams(job.deviceId, CLIENT_SCOPE, a));
  if (job.events) for (const e of job.events) batch.events.push(eventParams(e));
  if (job.purge) batch.purge.push(job.deviceId);
  return i;
}

/*
 * The worker. Same rules as the writer's commit on the main thread: new series, attributes, events
 * and purges (the writer sends none: telemetry-writer.ts, `stopWorkerForPurge`) in one transaction
 * (none when the batch has only values of known series, the usual case), then, once it committed,
 * the values as synced records of the staging ring (staging-log.ts), which the main thread adopts
 * with the batch's completion (the latest values follow when staged values are moved). It tells the main thread through postMessage and, for a
 * shutdown that cannot wait for the event loop, through the shared `signal`:
 * [last finished batch, its failure 0/1, closed 0/1].
 */
const WORKER_SOURCE = String.raw`
'use strict';
const { parentPort, workerData } = require('node:worker_threads');
const { DatabaseSync } = require('node:sqlite');
const fs = require('node:fs');
const { crc32 } = require('node:zlib');
const { file, sql, signal, ring, port } = workerData;
const state = new Int32Array(signal);
const db = new DatabaseSync(file);
// The ring's position is shared with the main thread, which commits when this worker does not.
const ringState = new Float64Array(ring.state);
const ringFd = fs.openSync(ring.path, 'r+');
const ringIo = { writeSync: fs.writeSync, fdatasyncSync: fs.fdatasyncSync, crc32 };
// As the main connection (server/db/sqlite.ts): the WAL is synced at each COMMIT, before the PUBACKs.
db.exec('PRAGMA synchronous = FULL; PRAGMA busy_timeout = 5000; PRAGMA wal_autocheckpoint = ${WAL_AUTOCHECKPOINT_PAGES};');
// staging-pack.ts and staging-log.ts, as the main thread encodes and appends packs. __name: what a
// transpiler that keeps function names wraps nested functions in.
const __name = (f) => f;
const encodeStagedPack = (${String(encodeStagedPack)});
const appendStagingRecord = (${String(appendStagingRecord)});
const seriesSelect = db.prepare(sql.series);
const seriesInsert = db.prepare(sql.newSeries);
const attribute = db.prepare(sql.attribute);
const event = db.prepare(sql.event);
const forget = sql.forgetDevice.map((s) => db.prepare(s));
const seriesIds = new Map();
const pairs = [];

// BEGIN only for a batch that writes to the database.
let open = false;
function begin() {
  if (open) return;
  db.exec('BEGIN IMMEDIATE');
  open = true;
}

function store(b) {
  if (b.attributes.length || b.events.length || b.purge.length) begin();
  const v = b.values;
  const pairIds = [];
  const c = { series: [], ts: [], types: [], nums: [], texts: [], flags: [] };
  for (let at = 0, i = 0; at < v.length; at += ${STRIDE}, i++) {
    const pair = v[at];
    const ts = v[at + 1];
    const type = v[at + 2];
    const num = Number.isNaN(v[at + 3]) ? null : v[at + 3];
    const text = b.texts !== null && b.texts[i] !== undefined ? b.texts[i] : null;
    const flag = b.flags !== null && b.flags[i] !== undefined ? b.flags[i] : null;
    let id = pairIds[pair];
    if (id === undefined) {
      const device = pairs[2 * pair];
      const key = pairs[2 * pair + 1];
      let keys = seriesIds.get(device);
      if (keys === undefined) seriesIds.set(device, (keys = new Map()));
      id = keys.get(key);
      if (id === undefined) {
        const row = seriesSelect.get(device, key);
        if (row === undefined) begin();
        id = row !== undefined ? row.id : Number(seriesInsert.run(device, key, ts, type, num, text, flag).lastInsertRowid);
        keys.set(key, id);
      }
      pairIds[pair] = id;
    }
    c.series.push(id);
    c.ts.push(ts);
    c.types.push(type);
    c.nums.push(num);
    c.texts.push(text);
    c.flags.push(flag);
  }
  for (const a of b.attributes) attribute.run(...a);
  for (const e of b.events) event.run(...e);
  for (const device of b.purge) {
    for (const statement of forget) statement.run(device);
    seriesIds.delete(device);
  }
  return c;
}

/** After the commit: no record names a series that a rollback took back. */
function stage(c) {
  const packs = [];
  for (let from = 0; from < c.series.length; from += ${PACK_VALUES}) {
    const to = Math.min(c.series.length, from + ${PACK_VALUES});
    const pack = encodeStagedPack(c, from, to);
    const staged = { data: pack.data, count: to - from, minTs: pack.minTs, maxTs: pack.maxTs };
    staged.seq = appendStagingRecord(ringIo, ringFd, ringState, staged).seq;
    packs.push(staged);
  }
  return packs;
}

parentPort.on('message', (b) => {
  if (b.close) {
    db.close();
    fs.closeSync(ringFd);
    Atomics.store(state, 2, 1);
    Atomics.notify(state, 2);
    return;
  }
  // The main thread counts these names as known whether or not this batch commits.
  for (const name of b.newPairs) pairs.push(name);
  let error = null;
  let packs = [];
  try {
    let c;
    try {
      c = store(b);
      if (open) db.exec('COMMIT');
    } catch (err) {
      if (db.isTransaction) db.exec('ROLLBACK');
      // Series created in the rolled-back batch do not exist.
      seriesIds.clear();
      throw err;
    } finally {
      open = false;
    }
    packs = stage(c);
  } catch (err) {
    // What the writer needs to tell one message's fault from the database's (commit-failure.ts).
    error = err instanceof Error ? { message: err.message, name: err.name, code: err.code, errcode: err.errcode } : { message: String(err) };
  }
  Atomics.store(state, 1, error === null ? 0 : 1);
  Atomics.store(state, 0, b.seq);
  Atomics.notify(state, 0);
  port.postMessage({ seq: b.seq, error, packs });
});
`;

/** Told once the batch is committed (null, with the ring's packs it appended) or why it was not. */
export type BatchDone = (err: Error | null, packs: readonly StagedPack[]) => void;

/** A failure as the worker reports it: the error's message and where it came from. */
interface WorkerFailure extends FailureOrigin {
  message: string;
}

/** A batch's end as the worker reports it. */
interface WorkerReport {
  seq: number;
  error: WorkerFailure | null;
  packs: StagedPack[];
}

function errorOf(failure: WorkerFailure): Error {
  const { message, ...origin } = failure;
  return Object.assign(new Error(message), origin);
}

export class HistoryWorker {
  private readonly worker: Worker;
  private readonly state = new Int32Array(new SharedArrayBuffer(3 * Int32Array.BYTES_PER_ELEMENT));
  private seq = 0;
  private inFlight: { seq: number; done: BatchDone } | null = null;
  /**
   * Where the worker reports batches: a port of our own, so that a shutdown can take the report of
   * the batch in flight synchronously (receiveMessageOnPort), with the packs it appended.
   */
  private readonly port: MessagePort;
  private gone = false;
  /** Series names the worker was told, so batches carry numbers. */
  readonly pairs = new PairTable();

  /** `failed` hears of a worker that died; its batch in flight fails, and it takes no more. */
  constructor(file: string, ring: RingHandle, private readonly failed: (err: Error) => void) {
    const { port1, port2 } = new MessageChannel();
    this.port = port1;
    this.worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { file, sql: writeSql, signal: this.state.buffer, ring, port: port2 },
      transferList: [port2],
      resourceLimits: { maxYoungGenerationSizeMb: 8, maxOldGenerationSizeMb: 64 },
    });
    this.worker.unref();
    this.port.unref();
    this.port.on('message', (report: WorkerReport) => this.finished(report));
    this.worker.on('error', (err) => this.die(err));
    this.worker.on('exit', (code) => this.die(new Error(`history worker exited with code ${code}`)));
  }

  /** A batch is being committed: the next waits (one at a time keeps batches in order). */
  get busy(): boolean {
    return this.inFlight !== null;
  }

  commit(batch: PackedBatch, done: BatchDone): void {
    if (this.gone) {
      done(new Error('history worker gone'), []);
      return;
    }
    const seq = ++this.seq;
    this.inFlight = { seq, done };
    this.worker.postMessage({ ...batch, seq }, [batch.values.buffer]);
  }

  /**
   * Shutdown: blocks until the batch in flight is committed and reports it (its message would only
   * arrive on a later turn of the loop), then closes the worker's connection and stops it.
   */
  close(timeoutMs = 10_000): void {
    const flight = this.inFlight;
    if (flight && !this.gone) {
      const deadline = Date.now() + timeoutMs;
      while (Atomics.load(this.state, 0) !== flight.seq && Date.now() < deadline) {
        Atomics.wait(this.state, 0, Atomics.load(this.state, 0), Math.max(1, deadline - Date.now()));
      }
      const settled = Atomics.load(this.state, 0) === flight.seq;
      const report = settled ? (receiveMessageOnPort(this.port)?.message as WorkerReport | undefined) : undefined;
      if (report) this.finished(report);
      else this.finished({ seq: flight.seq, error: { message: settled ? 'history batch report lost at shutdown' : 'history worker did not finish before shutdown' }, packs: [] });
    }
    if (!this.gone) {
      this.gone = true;
      this.worker.postMessage({ close: true });
      Atomics.wait(this.state, 2, 0, 1000);
    }
    this.port.close();
    void this.worker.terminate();
  }

  private finished({ seq, error, packs }: WorkerReport): void {
    const flight = this.inFlight;
    if (!flight || flight.seq !== seq) return;
    this.inFlight = null;
    flight.done(error === null ? null : errorOf(error), packs);
  }

  private die(err: Error): void {
    if (this.gone) return;
    this.gone = true;
    const flight = this.inFlight;
    this.inFlight = null;
    // The writer first gives up on this worker, so what the failed batch's callback flushes next
    // is committed on the main thread.
    this.failed(err);
    flight?.done(err, []);
  }
}
