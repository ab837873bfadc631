/**
 * Deleting a series' history older than a time, rows and blocks, in small transactions with a
 * turn of the event loop between them: what the daily retention and the size cap share, so devices
 * and the console keep being served while a large backlog goes.
 */
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { transaction, type Db } from '../../db/sqlite.ts';
import type { TelemetryRepository } from './telemetry-repository.ts';

/** Rows deleted per step of a clean-up. */
export const DELETE_CHUNK = 5000;
/** History blocks per step of a clean-up (each holds up to a few thousand values). */
export const BLOCK_CHUNK = 4;

/** Deletes the series' values older than `before`; returns how many went. Stops between steps once `stopped()`. */
export async function pruneSeriesBefore(db: Db, rows: TelemetryRepository, seriesId: number, before: number, stopped: () => boolean): Promise<number> {
  let values = 0;
  for (let n = DELETE_CHUNK; n === DELETE_CHUNK && !stopped(); ) {
    n = rows.deleteHistoryBefore(seriesId, before, DELETE_CHUNK);
    values += n;
    await yieldToLoop();
  }
  for (let n = BLOCK_CHUNK; n === BLOCK_CHUNK && !stopped(); ) {
    const dropped = transaction(db, () => rows.blocks.dropBefore(seriesId, before, BLOCK_CHUNK));
    n = dropped.blocks;
    values += dropped.values;
    await yieldToLoop();
  }
  return values;
}
