/**
 * Why a batch failed to commit decides whether its messages are tried again apart
 * (telemetry-writer.ts): a failure one message's content can cause is worth splitting the batch
 * over, so that only that message fails and the devices batched with it are not refused (nor, over
 * MQTT, disconnected) for it; a failure of the database itself would fail every part alike.
 */

/** SQLite primary result codes a message's values can cause: string or blob too big, a constraint (a NULL ts), a type mismatch. */
const MESSAGE_SQLITE_CODES = new Set([18, 19, 20]);

/** What an error says about itself; the history worker reports these fields of its errors. */
export interface FailureOrigin {
  name?: string;
  code?: unknown;
  errcode?: unknown;
}

/**
 * True for errors a single message can cause: encoding a value (JSON.stringify's RangeError on a
 * value nested too deep, TypeError on a BigInt), binding one (TypeError), or a data error SQLite
 * returns for one row. False for the rest (disk full, I/O, busy, database closed, a worker that
 * died), which retrying parts would only repeat.
 */
export function isMessageFault(err: FailureOrigin): boolean {
  if (err.name === 'RangeError' || err.name === 'TypeError') return true;
  // node:sqlite gives the extended result code; its low byte is the primary one.
  return err.code === 'ERR_SQLITE_ERROR' && typeof err.errcode === 'number' && MESSAGE_SQLITE_CODES.has(err.errcode & 0xff);
}
