/**
 * A process that compacts a data dir's history as fast as it can, one step (one transaction) after
 * another: first it merges small blocks, then it turns rows into blocks, saying "compacting" once
 * some merge steps are committed: the crash test kills it with SIGKILL somewhere in the middle.
 * Run: node --import tsx --import sql-text-loader.mjs compaction-child.ts <db file>
 */
import { migrations } from '../../server/app.ts';
import { openDatabase } from '../../server/db/sqlite.ts';
import { HistoryCompactor } from '../../server/modules/telemetry/history-compactor.ts';
import { TelemetryRepository } from '../../server/modules/telemetry/telemetry-repository.ts';

const silent = { error: () => {}, warn: () => {}, info: () => {}, debug: () => {}, trace: () => {}, fatal: () => {}, child: () => silent, level: 'silent' };
const END = Number.MAX_SAFE_INTEGER;
const POINTS = 2000;

const db = openDatabase(process.argv[2]!, migrations);
const rows = new TelemetryRepository(db);
const compactor = new HistoryCompactor({ db, blocks: rows.blocks, log: silent as never, options: { recentMs: 0, everyMs: 0, blockPoints: POINTS, stepRows: 40 } });
let steps = 0;
const stepped = (): void => {
  if (++steps === 10) process.stdout.write('compacting\n');
};
for (const series of rows.blocks.seriesWithSmallBlocksBefore(END, POINTS)) {
  for (let from: number | null = Number.MIN_SAFE_INTEGER; from !== null; stepped()) from = compactor.mergeStep(series, END, from).next;
}
for (const series of rows.blocks.seriesWithRowsBefore(END)) {
  while (compactor.step(series, END).values > 0) stepped();
}
db.close();
process.stdout.write('done\n');
