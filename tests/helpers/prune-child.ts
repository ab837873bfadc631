/**
 * A process that prunes a data dir's history before a cut, series after series, as retention
 * does (history-prune.ts: small transactions), saying "pruning" once some are committed: the crash
 * test kills it with SIGKILL somewhere in the middle.
 * Run: node --import tsx --import sql-text-loader.mjs prune-child.ts <db file> <cut ts>
 */
import { migrations } from '../../server/app.ts';
import { openDatabase } from '../../server/db/sqlite.ts';
import { pruneSeriesBefore } from '../../server/modules/telemetry/history-prune.ts';
import { StagingMover } from '../../server/modules/telemetry/staging-mover.ts';
import { TelemetryRepository } from '../../server/modules/telemetry/telemetry-repository.ts';

const db = openDatabase(process.argv[2]!, migrations);
const cut = Number(process.argv[3]);
const rows = new TelemetryRepository(db);
// The values were staged as the writer stages them; moved, they are history blocks.
new StagingMover(db).moveAll();
let series = 0;
for (const { id } of rows.series()) {
  await pruneSeriesBefore(db, rows, id, cut, () => false);
  if (++series === 2) process.stdout.write('pruning\n');
}
db.close();
process.stdout.write('done\n');
