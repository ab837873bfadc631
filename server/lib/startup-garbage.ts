/**
 * One full collection shortly after the gateway listens. Start-up (migrations, every module's
 * build, route and schema compilation, the code cache's functions) leaves megabytes of garbage in
 * V8's old generation and a young generation grown by it; with no allocation after it, an idle
 * gateway keeps them resident until V8's memory reducer runs, seconds later or not at all
 * (docs/PERFORMANCE-FINDINGS.md, "Idle RSS"). Collecting once when the start is over gives the pages
 * back at a moment when a pause of a few milliseconds delays nothing: no request is answered yet
 * and no device has connected. `gc` comes from a fresh context, so the server's global does not
 * gain one.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** Late enough for the first requests of a starting console, early for an idle reading. */
const AFTER_LISTEN_MS = 300;

export function collectStartupGarbage(): void {
  setTimeout(() => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as (() => void) | undefined;
    gc?.();
  }, AFTER_LISTEN_MS).unref();
}
