/**
 * A process that moves a data dir's staged history values into ts_history (one transaction),
 * saying "moving" just before: the crash test kills it with SIGKILL while it moves.
 * Run: node --import tsx --import sql-text-loader.mjs staging-move-child.ts <db file>
 */
import { migrations } from '../../server/app.ts';
import { openDatabase } from '../../server/db/sqlite.ts';
import { StagingMover } from '../../server/modules/telemetry/staging-mover.ts';

const db = openDatabase(process.argv[2]!, migrations);
const mover = new StagingMover(db);
process.stdout.write('moving\n');
mover.move();
db.close();
process.stdout.write('done\n');
