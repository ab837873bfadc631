import { setImmediate as turn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { SlicedQueue } from '../../server/modules/transport/sliced-queue.ts';

describe('work handed out a slice per turn of the event loop', () => {
  it('handles at most a slice per turn, in order, and lets what was queued meanwhile run between two slices', async () => {
    const log: string[] = [];
    const queue = new SlicedQueue<number>(
      (n) => {
        log.push(String(n));
        // Stands for a socket read or a console request that became ready during the slice.
        if (n === 0) setImmediate(() => log.push('other'));
      },
      64,
      60_000,
    );
    for (let n = 0; n < 150; n++) queue.push(n);
    expect(log).toEqual([]);
    await turn();
    expect(log).toHaveLength(64);
    await turn();
    expect(log.slice(64, 66)).toEqual(['other', '64']);
    expect(log).toHaveLength(129);
    while (queue.size > 0) await turn();
    expect(log.filter((l) => l !== 'other')).toEqual(Array.from({ length: 150 }, (_, n) => String(n)));
  });

  it('ends a slice once its time is spent, after one item at least', async () => {
    const handled: number[] = [];
    const queue = new SlicedQueue<number>((n) => handled.push(n), 64, 0);
    for (let n = 0; n < 3; n++) queue.push(n);
    await turn();
    expect(handled).toEqual([0]);
    await turn();
    expect(handled).toEqual([0, 1]);
    // Items pushed after the queue ran dry start a new round of slices.
    await turn();
    queue.push(3);
    await turn();
    expect(handled).toEqual([0, 1, 2, 3]);
  });

  it('forgets what waits when cleared', async () => {
    const handled: number[] = [];
    const queue = new SlicedQueue<number>((n) => handled.push(n), 1, 60_000);
    queue.push(1);
    queue.push(2);
    await turn();
    queue.clear();
    await turn();
    expect(handled).toEqual([1]);
    expect(queue.size).toBe(0);
    queue.push(3);
    await turn();
    expect(handled).toEqual([1, 3]);
  });
});
