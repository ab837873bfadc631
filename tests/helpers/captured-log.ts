/** The gateway's own logger options writing into a buffer a test reads, line by line. */
import { Writable } from 'node:stream';
import { loggerOptions } from '../../server/lib/logger-options.ts';

/** Logger options at `level` for makeApp, and what was written so far. */
export function capturedLog(level: 'info' | 'debug' | 'trace') {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk.toString('utf8'));
      done();
    },
  });
  return {
    logger: { ...loggerOptions(level), stream },
    text: () => chunks.join(''),
    lines: () => chunks.join('').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>),
  };
}
