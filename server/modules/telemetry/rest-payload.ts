/**
 * Data written over REST (shared attributes, telemetry saved by a user) is read through the bytes
 * a device would send, so the device API's rules hold for it too: 64 KB, 32 levels, keys, values.
 */
import { ErrorCode } from '../../contract/errors.ts';
import { AppError } from '../../lib/app-error.ts';
import { violationError } from '../../lib/field-errors.ts';
import { parseJson, PayloadRefusal } from '../../lib/device-payload.ts';

function refusal(err: PayloadRefusal): AppError {
  if (err.key === 'error.transport.payloadTooLarge') {
    return new AppError(ErrorCode.BAD_REQUEST_PARAMS, err.key, err.params, { status: 413 });
  }
  return violationError([{ field: '', key: err.key, params: err.params }]);
}

/** `read` applied to `body` as device bytes; a refusal is 400 code 31 with the device API's key (413 over 64 KB). */
export function fromRestBody<T>(body: unknown, read: (json: unknown, now: number) => T): T {
  try {
    return read(parseJson(Buffer.from(JSON.stringify(body) ?? '')), Date.now());
  } catch (err) {
    if (err instanceof PayloadRefusal) throw refusal(err);
    throw err;
  }
}
