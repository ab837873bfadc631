/**
 * Moves each series' older history rows into compressed blocks (docs/PERFORMANCE-FINDINGS.md, "History
 * blocks"), off the request path: on a timer, on the main thread, one series' step at a time with
 * a turn of the event loop between steps, so ingest waits at most one step (a few milliseconds).
 *
 * A step is one transaction: it reads up to `stepRows` of the series' oldest rows older than
 * the recent window, all within one UTC day, decodes the blocks of that day they overlap or
 * extend (a late value inside a block's span, the day's last block while it is not full), merges
 * them (a row wins over a block value of the same ts: it is the newer write), deletes those rows
 * and blocks and inserts the merged values as blocks of at most `blockPoints`. A kill at any point
 * leaves either the rows or the blocks, never both or neither. A run first moves the staged
 * values (staging-mover.ts), so a late value still staged is not left behind.
 *
 * Staged values become blocks directly, one per series and day at each move (a few hundred values
 * at most, often a few dozen), so a run then merges each series' small blocks: a merge step is one
 * transaction that decodes a run of consecutive blocks of one UTC day older than the recent window
 * that together hold at most `blockPoints` values, deletes them and inserts them as one block. A
 * kill at any point leaves either the small blocks or the merged one
 * (tests/integration/history-compaction-crash.test.ts). Rows (history from before staged values
 * became blocks) still take the first path.
 */
import type { StatementSync } from 'node:sqlite';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import { transaction, type Db } from '../../db/sqlite.ts';
import type { HistoryBlocks } from './history-blocks.ts';
import { BLOCK_POINTS, DAY_MS, dayOf, mergeNewer } from './history-merge.ts';
import { StagingMover } from './staging-mover.ts';
import { historyRowOf, type HistoryRow, type HistoryRowRecord } from './telemetry-rows.ts';


export interface CompactorOptions {
  /** Rows newer than this stay rows (ms): the live path and recent queries read them as before. */
  recentMs: number;
  /** How often the compactor runs (ms); 0: never on its own (tests call `run`). */
  everyMs: number;
  /** Values per block at most. */
  blockPoints: number;
  /**
   * Rows moved per step at most: a step holds the main thread and the write lock, and reading and
   * deleting rows is most of its time (~3 ms per 1,000 rows), so steps stay short and a day's
   * block grows over several steps.
   */
  stepRows: number;
}

export const COMPACTOR_DEFAULTS: CompactorOptions = { recentMs: 3_600_000, everyMs: 900_000, blockPoints: BLOCK_POINTS, stepRows: 2048 };

export interface CompactionResult {
  series: number;
  values: number;
  blocks: number;
}


export class HistoryCompactor {
  private readonly options: CompactorOptions;
  private readonly oldestRows: StatementSync;
  private readonly deleteRows: StatementSync;
  private readonly mover: StagingMover;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<CompactionResult> | null = null;
  private stopped = false;

  private readonly db: Db;
  private readonly blocks: HistoryBlocks;
  private readonly log: FastifyBaseLogger;

  constructor(deps: { db: Db; blocks: HistoryBlocks; log: FastifyBaseLogger; options?: Partial<CompactorOptions> }) {
    const { db } = deps;
    this.db = db;
    this.blocks = deps.blocks;
    this.log = deps.log;
    this.options = { ...COMPACTOR_DEFAULTS, ...deps.options };
    this.oldestRows = db.prepare(
      'SELECT ts, value_type, num_value, text_value, flag FROM ts_history WHERE series_id = ? AND ts < ? ORDER BY ts LIMIT ?',
    );
    this.deleteRows = db.prepare('DELETE FROM ts_history WHERE series_id = ? AND ts >= ? AND ts <= ?');
    this.mover = new StagingMover(db, this.options.blockPoints);
  }

  start(): void {
    if (this.options.everyMs <= 0 || this.timer) return;
    this.timer = setInterval(() => {
      this.run().catch((err: unknown) => this.log.error({ err }, 'history compaction failed'));
    }, this.options.everyMs);
    this.timer.unref();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** Compacts every series' rows older than `now - recentMs`; a run already going is joined. */
  run(now = Date.now()): Promise<CompactionResult> {
    this.running ??= this.compactAll(now - this.options.recentMs).finally(() => (this.running = null));
    return this.running;
  }

  private async compactAll(cutoff: number): Promise<CompactionResult> {
    const result: CompactionResult = { series: 0, values: 0, blocks: 0 };
    this.mover.moveAll();
    const touched = new Set<number>();
    for (const series of this.blocks.seriesWithRowsBefore(cutoff)) {
      touched.add(series);
      for (;;) {
        if (this.stopped) return result;
        const step = this.step(series, cutoff);
        result.values += step.values;
        result.blocks += step.blocks;
        await yieldToLoop();
        if (step.values === 0) break;
      }
    }
    for (const series of this.blocks.seriesWithSmallBlocksBefore(cutoff, this.options.blockPoints)) {
      for (let from: number | null = Number.MIN_SAFE_INTEGER; from !== null; ) {
        if (this.stopped) return result;
        const step = this.mergeStep(series, cutoff, from);
        if (step.values > 0) touched.add(series);
        result.values += step.values;
        result.blocks += step.blocks;
        from = step.next;
        await yieldToLoop();
      }
    }
    result.series = touched.size;
    if (result.values > 0) this.log.info(result, 'history compacted');
    return result;
  }

  /** One transaction: up to `stepRows` of the series' oldest rows before `cutoff` into blocks. */
  step(seriesId: number, cutoff: number): { values: number; blocks: number } {
    const { blockPoints, stepRows } = this.options;
    return transaction(this.db, () => {
      const found = this.oldestRows.all(seriesId, cutoff, stepRows) as unknown as HistoryRowRecord[];
      if (found.length === 0) return { values: 0, blocks: 0 };
      const dayStart = dayOf(found[0]!.ts);
      const rows: HistoryRow[] = [];
      for (const r of found) {
        if (r.ts >= dayStart + DAY_MS) break;
        rows.push(historyRowOf(r));
      }
      const first = rows[0]!.ts;
      const last = rows[rows.length - 1]!.ts;
      const targets = this.blocks.overlapping(seriesId, first, last);
      const previous = this.blocks.before(seriesId, first, dayStart);
      if (previous && previous.count < blockPoints) targets.unshift(previous);
      const merged = mergeNewer(
        targets.flatMap((b) => this.blocks.rows(b.id)),
        rows,
      );
      this.deleteRows.run(seriesId, first, last);
      for (const b of targets) this.blocks.delete(b.id);
      return { values: rows.length, blocks: this.blocks.insertAll(seriesId, merged, blockPoints) };
    });
  }

  /**
   * One transaction: the first run of two or more consecutive blocks of the series from `from` on
   * (first_ts), within one UTC day, ending before `cutoff`, holding at most `blockPoints` values
   * together, merged into one block. `next`: where the next step looks from; null: nothing left.
   */
  mergeStep(seriesId: number, cutoff: number, from: number): { values: number; blocks: number; next: number | null } {
    const { blockPoints } = this.options;
    const page = 256;
    return transaction(this.db, () => {
      const spans = this.blocks.spans(seriesId, from, page);
      for (let i = 0; i < spans.length && spans[i]!.lastTs < cutoff; i++) {
        const day = dayOf(spans[i]!.firstTs);
        let end = i;
        let values = 0;
        while (end < spans.length) {
          const b = spans[end]!;
          if (b.lastTs >= cutoff || dayOf(b.lastTs) !== day || values + b.count > blockPoints) break;
          values += b.count;
          end++;
        }
        // The run may go on beyond this page: read it again from its first block.
        if (end === spans.length && spans.length === page && i > 0) return { values: 0, blocks: 0, next: spans[i]!.firstTs };
        if (end - i < 2) continue;
        const run = spans.slice(i, end);
        const merged = run.flatMap((b) => this.blocks.rows(b.id));
        for (const b of run) this.blocks.delete(b.id);
        this.blocks.insert(seriesId, merged);
        return { values, blocks: 1, next: end < spans.length ? spans[end]!.firstTs : spans.length === page ? merged[0]!.ts : null };
      }
      // A full page of blocks none of which merges: the next page, unless the window ends here.
      const last = spans[spans.length - 1];
      return { values: 0, blocks: 0, next: spans.length === page && last!.lastTs < cutoff ? last!.firstTs + 1 : null };
    });
  }
}
