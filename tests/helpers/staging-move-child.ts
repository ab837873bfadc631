/**
 * A process that moves a data dir's staged history values into history blocks, a chunk per
 * transaction, saying "moving" once the first chunk is committed: the crash test kills it with
 * SIGKILL somewhere in the middle.
 * Run: node --import tsx --import sql-text-loader.mjs staging-move-child.ts <db file>
 */
import { migrations } from '../../server/app.ts';
import { openDatabase } from '../../server/db/sqlite.ts';
import { StagingMover } from '../../server/modules/telemetry/staging-mover.ts';

const db = openDatabase(process.argv[2]!, migrations);
const mover = new StagingMover(db);
mover.move();
process.stdout.write('moving\n');
mover.moveAll();
db.close();
process.stdout.write('done\n');
