import { describe, expect, it } from 'vitest';
import { REFUSAL_LOG_WINDOW_MS, TransportStats } from '../../server/modules/transport/transport-stats.ts';

describe('transport refusal counters', () => {
  it('counts every refusal but lets one log line per device and reason through each minute, with the count it swallowed', () => {
    const stats = new TransportStats();
    const t0 = 1_000_000;
    expect(stats.refuse('error.transport.malformedJson', 'dev-1', t0)).toBe(0);
    expect(stats.refuse('error.transport.malformedJson', 'dev-1', t0 + 1)).toBeNull();
    expect(stats.refuse('error.transport.malformedJson', 'dev-1', t0 + 2)).toBeNull();
    // Another device or another reason has its own line.
    expect(stats.refuse('error.transport.malformedJson', 'dev-2', t0 + 3)).toBe(0);
    expect(stats.refuse('error.transport.badTs', 'dev-1', t0 + 4)).toBe(0);
    expect(stats.refuse('error.transport.malformedJson', 'dev-1', t0 + REFUSAL_LOG_WINDOW_MS)).toBe(2);
    stats.accept();
    expect(stats.snapshot()).toEqual({ accepted: 1, refused: { 'error.transport.malformedJson': 5, 'error.transport.badTs': 1 } });
  });
});
