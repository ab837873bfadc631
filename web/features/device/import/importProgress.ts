/**
 * Progress of a single long call (import commit, batch generation). The server answers once, so
 * the bar eases towards 95 % over the expected duration and jumps to 100 % with the answer: it
 * shows that work is going on without claiming a precision it does not have.
 */
import { useEffect, useState } from 'react';

/** Percent shown after `elapsedMs` of a call expected to take about `expectedMs`. */
export function easedPercent(elapsedMs: number, expectedMs: number): number {
  if (elapsedMs <= 0) return 0;
  return Math.min(95, Math.round(95 * (1 - Math.exp((-2 * elapsedMs) / Math.max(expectedMs, 1)))));
}

/** Rough duration of creating `rows` devices: the server's check and insert plus the round trip. */
export function expectedImportMs(rows: number): number {
  return 400 + rows * 0.5;
}

/** The percent while `running`; 100 once it stops after having run. */
export function useEasedProgress(running: boolean, expectedMs: number): number {
  const [percent, setPercent] = useState(0);
  useEffect(() => {
    if (!running) {
      setPercent((p) => (p > 0 ? 100 : 0));
      return;
    }
    const start = Date.now();
    setPercent(0);
    const timer = setInterval(() => setPercent(easedPercent(Date.now() - start, expectedMs)), 120);
    return () => clearInterval(timer);
  }, [running, expectedMs]);
  return percent;
}
