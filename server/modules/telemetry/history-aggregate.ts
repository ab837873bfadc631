/**
 * What a history aggregation counts, one rule for rows and for the values of decoded history
 * blocks, and the running MIN/MAX/SUM/AVG/COUNT of one bucket.
 *
 * Sums are kept as a double plus its running rounding error (Neumaier's compensated sum), so the
 * result is the exactly rounded sum in practice whatever the grouping: a bucket summed value by
 * value from rows and the same bucket summed from block summaries give the same double, and a
 * query answers the same before and after compaction.
 */
import type { Aggregation } from '../../contract/telemetry.ts';
import { flaggedOutOfRange } from '../../contract/rules/property-value.ts';
import { ValueType } from './stored-value.ts';
import type { HistoryRow } from './telemetry-rows.ts';

export type ValueAggregation = Exclude<Aggregation, 'NONE'>;

/**
 * Whether a stored value enters `agg`: MIN, MAX, AVG and SUM read numbers and booleans (1/0),
 * COUNT counts every value; a value flagged out of its property's range enters none unless
 * `includeOutOfRange` (as the console's chart leaves it out). Block summaries
 * (blocks/block-summary.ts) hold unflagged values only, and a block with any flagged value is
 * decoded and its values put through this function, so the rule on flags applies to rows and
 * blocks alike.
 */
export function entersAggregate(agg: ValueAggregation, row: Pick<HistoryRow, 'valueType' | 'numValue' | 'flag'>, includeOutOfRange = true): boolean {
  if (!includeOutOfRange && flaggedOutOfRange(row.flag)) return false;
  if (agg === 'COUNT') return true;
  return (row.valueType === ValueType.NUMBER || row.valueType === ValueType.BOOLEAN) && row.numValue !== null;
}

/** Summary of the numeric values of a stretch of history (a block's, see blocks/block-summary.ts). */
export interface NumericSummary {
  count: number;
  numCount: number;
  numMin: number | null;
  numMax: number | null;
  numSum: number;
  numSumLo: number;
}

export class BucketFold {
  private min = Number.POSITIVE_INFINITY;
  private max = Number.NEGATIVE_INFINITY;
  private sum = 0;
  private lo = 0;
  /** Values folded in. */
  n = 0;

  private addSum(x: number, error: number): void {
    const s = this.sum + x;
    this.lo += (Math.abs(this.sum) >= Math.abs(x) ? this.sum - s + x : x - s + this.sum) + error;
    this.sum = s;
  }

  add(agg: ValueAggregation, x: number | null): void {
    this.n++;
    if (agg === 'COUNT' || x === null) return;
    if (x < this.min) this.min = x;
    if (x > this.max) this.max = x;
    this.addSum(x, 0);
  }

  /** A whole summary at once (its values all enter `agg`, as summaries hold unflagged values only). */
  addSummary(agg: ValueAggregation, s: NumericSummary): void {
    if (agg === 'COUNT') {
      this.n += s.count;
      return;
    }
    if (s.numCount === 0) return;
    this.n += s.numCount;
    if (s.numMin !== null && s.numMin < this.min) this.min = s.numMin;
    if (s.numMax !== null && s.numMax > this.max) this.max = s.numMax;
    this.addSum(s.numSum, s.numSumLo);
  }

  value(agg: ValueAggregation): number {
    switch (agg) {
      case 'MIN':
        return this.min;
      case 'MAX':
        return this.max;
      case 'SUM':
        return this.sum + this.lo;
      case 'AVG':
        return (this.sum + this.lo) / this.n;
      default:
        return this.n;
    }
  }

  /** The running sum as a double and its error, for a block summary. */
  sumParts(): { sum: number; lo: number } {
    return { sum: this.sum, lo: this.lo };
  }
}
