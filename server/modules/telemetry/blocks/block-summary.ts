/**
 * The summary a history block carries beside its bytes (ts_block's columns), so that aggregations
 * over intervals that hold whole blocks read no block data. Only values without a flag are
 * summarised: `flagged` counts the others, and a block that has any is decoded for aggregation so
 * that each of its values goes through the one filter of history-aggregate.ts.
 */
import { BucketFold, entersAggregate, type NumericSummary } from '../history-aggregate.ts';
import type { HistoryRow } from '../telemetry-rows.ts';

export interface BlockSummary extends NumericSummary {
  firstTs: number;
  lastTs: number;
  flagged: number;
}

/** Summary of `rows`, in ts order. */
export function summarize(rows: readonly HistoryRow[]): BlockSummary {
  const fold = new BucketFold();
  let flagged = 0;
  for (const r of rows) {
    if (r.flag !== null) flagged++;
    else if (entersAggregate('SUM', r)) fold.add('SUM', r.numValue);
  }
  const numCount = fold.n;
  const { sum, lo } = fold.sumParts();
  return {
    firstTs: rows[0]!.ts,
    lastTs: rows[rows.length - 1]!.ts,
    count: rows.length,
    flagged,
    numCount,
    numMin: numCount ? fold.value('MIN') : null,
    numMax: numCount ? fold.value('MAX') : null,
    numSum: sum,
    numSumLo: lo,
  };
}
