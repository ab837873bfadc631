/**
 * A process that compacts a data dir's history as fast as it can, one step (one transaction) after
 * another, saying "compacting" once some steps are committed: the crash test kills it with SIGKILL
 * somewhere in the middle. Run: node --import tsx --import sql-text-loader.mjs compaction-child.ts <db file>
 */
import { migrations } from '../../server/app.ts';
import { openDatabase } from '../../server/db/sqlite.ts';
import { HistoryCompactor } from '../../server/modules/telemetry/history-compactor.ts';
import { StagingMover } from '../../server/modules/telemetry/staging-mover.ts';
import { TelemetryRepository } from '../../server/modules/telemetry/telemetry-repository.ts';

const silent = { error: () => {}, warn: () => {}, info: () => {}, debug: () => {}, trace: () => {}, fatal: () => {}, child: () => silent, level: 'silent' };

const db = openDatabase(process.argv[2]!, migrations);
const rows = new TelemetryRepository(db);
const compactor = new HistoryCompactor(db, rows.blocks, silent as never, { recentMs: 0, everyMs: 0, blockPoints: 40, stepRows: 40 });
// The values were staged as the writer stages them; compaction reads rows.
new StagingMover(db).moveAll();
let steps = 0;
for (const series of rows.blocks.seriesWithRowsBefore(Number.MAX_SAFE_INTEGER)) {
  while (compactor.step(series, Number.MAX_SAFE_INTEGER).values > 0) {
    if (++steps === 10) process.stdout.write('compacting\n');
  }
}
db.close();
process.stdout.write('done\n');
