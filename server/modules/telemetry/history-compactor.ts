/**
 * Moves each series' older history rows into compressed blocks (docs/ARCHITECTURE.md, "History
 * blocks"), off the request path: on a timer, on the main thread, one series' step at a time with
 * a turn of the event loop between steps, so ingest waits at most one step (a few milliseconds).
 *
 * A step is one transaction: it reads up to `stepRows` of the series' oldest rows older than
 * the recent window, all within one UTC day, decodes the blocks of that day they overlap or
 * extend (a late value inside a block's span, the day's last block while it is not full), merges
 * them (a row wins over a block value of the same ts: it is the newer write), deletes those rows
 * and blocks and inserts the merged values as blocks of at most `blockPoints`. A kill at any point
 * leaves either the rows or the blocks, never both or neither. A run first moves the staged
 * values into rows (staging-mover.ts), so a late value still staged is not left behind.
 */
import type { StatementSync } from 'node:sqlite';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import { transaction, type Db } from '../../db/sqlite.ts';
import type { HistoryBlocks } from './history-blocks.ts';
import { StagingMover } from './staging-mover.ts';
import { historyRowOf, type HistoryRow, type HistoryRowRecord } from './telemetry-rows.ts';

const DAY_MS = 86_400_000;

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

export const COMPACTOR_DEFAULTS: CompactorOptions = { recentMs: 3_600_000, everyMs: 900_000, blockPoints: 8192, stepRows: 2048 };

export interface CompactionResult {
  series: number;
  values: number;
  blocks: number;
}


/** `blocks` (non-overlapping, in ts order) and `rows` (ts order) as one series; a row wins a tie. */
function merge(blockValues: readonly HistoryRow[], rows: readonly HistoryRow[]): HistoryRow[] {
  const out: HistoryRow[] = [];
  let r = 0;
  for (const v of blockValues) {
    while (r < rows.length && rows[r]!.ts < v.ts) out.push(rows[r++]!);
    if (r < rows.length && rows[r]!.ts === v.ts) continue;
    out.push(v);
  }
  while (r < rows.length) out.push(rows[r++]!);
  return out;
}

export class HistoryCompactor {
  private readonly options: CompactorOptions;
  private readonly oldestRows: StatementSync;
  private readonly deleteRows: StatementSync;
  private readonly mover: StagingMover;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<CompactionResult> | null = null;
  private stopped = false;

  constructor(
    private readonly db: Db,
    private readonly blocks: HistoryBlocks,
    private readonly log: FastifyBaseLogger,
    options: Partial<CompactorOptions> = {},
  ) {
    this.options = { ...COMPACTOR_DEFAULTS, ...options };
    this.oldestRows = db.prepare(
      'SELECT ts, value_type, num_value, text_value, flag FROM ts_history WHERE series_id = ? AND ts < ? ORDER BY ts LIMIT ?',
    );
    this.deleteRows = db.prepare('DELETE FROM ts_history WHERE series_id = ? AND ts >= ? AND ts <= ?');
    this.mover = new StagingMover(db);
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
    for (const series of this.blocks.seriesWithRowsBefore(cutoff)) {
      result.series++;
      for (;;) {
        if (this.stopped) return result;
        const step = this.step(series, cutoff);
        result.values += step.values;
        result.blocks += step.blocks;
        await yieldToLoop();
        if (step.values === 0) break;
      }
    }
    if (result.values > 0) this.log.info(result, 'history compacted');
    return result;
  }

  /** One transaction: up to `stepRows` of the series' oldest rows before `cutoff` into blocks. */
  step(seriesId: number, cutoff: number): { values: number; blocks: number } {
    const { blockPoints, stepRows } = this.options;
    return transaction(this.db, () => {
      const found = this.oldestRows.all(seriesId, cutoff, stepRows) as unknown as HistoryRowRecord[];
      if (found.length === 0) return { values: 0, blocks: 0 };
      const dayStart = Math.floor(found[0]!.ts / DAY_MS) * DAY_MS;
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
      const merged = merge(
        targets.flatMap((b) => this.blocks.rows(b.id)),
        rows,
      );
      this.deleteRows.run(seriesId, first, last);
      for (const b of targets) this.blocks.delete(b.id);
      let blocks = 0;
      for (let at = 0; at < merged.length; at += blockPoints, blocks++) this.blocks.insert(seriesId, merged.slice(at, at + blockPoints));
      return { values: rows.length, blocks };
    });
  }
}
