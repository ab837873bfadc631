/**
 * A process that stages one value per commit into the telemetry staging ring, as a paced fleet's
 * commits do, saying `acked <i>` once value i is synced, and moves what is staged into blocks every
 * <move every> commits. The crash test kills it with SIGKILL mid-stream.
 * Run: node --import tsx --import sql-text-loader.mjs staging-ring-child.ts <db file> <first i> <move every>
 */
import { migrations } from '../../server/app.ts';
import { openDatabase } from '../../server/db/sqlite.ts';
import { StagingMover } from '../../server/modules/telemetry/staging-mover.ts';
import { TelemetryRepository } from '../../server/modules/telemetry/telemetry-repository.ts';

const db = openDatabase(process.argv[2]!, migrations);
const repository = new TelemetryRepository(db);
const mover = new StagingMover(db);
const moveEvery = Number(process.argv[4]);
for (let i = Number(process.argv[3]); ; i++) {
  repository.insertTelemetry([{ deviceId: 'dev-1', telemetry: [{ ts: 1_700_000_000_000 + i * 1000, key: 'seq', value: i }] }]);
  process.stdout.write(`acked ${i}\n`);
  if (i % moveEvery === moveEvery - 1) mover.move();
}
