/**
 * One line of the benchmark table (scripts/bench.ts): a figure, its budget and verdict, how it was
 * measured, and the machine's load while it was, because on a shared machine a timing means little
 * without it.
 */
import { loadavg } from 'node:os';

export type Unit = 'B' | 'KB' | 'MB' | 'ms' | 'msg/s' | '%' | 'B/value' | 's' | 'count' | 'MB/10 min';

export interface Row {
  id: string;
  figure: string;
  value: number | null;
  unit: Unit;
  budget: number | null;
  /** Which side of the budget passes: sizes and times are budgets from above, throughput from below. */
  better: 'lower' | 'higher';
  /** `—`: a figure reported beside a budgeted one, with no budget of its own. */
  status: 'PASS' | 'OVER' | 'UNDER' | 'not measured' | '—';
  note: string;
  /** ISO time the figure was measured (rows kept from an earlier `--only` run keep theirs). */
  measuredAt: string;
  /** 1-minute load average when its measurement started and when it ended. */
  load: [number, number];
  /** Machine-readable companions of `value` (percentiles, counts, CPU time). */
  detail?: Record<string, number | string>;
}

export interface RowSpec {
  id: string;
  figure: string;
  value: number | null;
  unit: Unit;
  budget?: number | null;
  better?: Row['better'];
  note: string;
  detail?: Record<string, number | string>;
}

export function load1m(): number {
  return Number(loadavg()[0]!.toFixed(2));
}

/** A measured row; `startLoad` is the load average taken when its measurement began. */
export function row(spec: RowSpec, startLoad: number): Row {
  const budget = spec.budget ?? null;
  const better = spec.better ?? 'lower';
  let status: Row['status'] = 'PASS';
  if (spec.value === null) status = 'not measured';
  else if (budget === null) status = '—';
  else if (better === 'lower' && spec.value > budget) status = 'OVER';
  else if (better === 'higher' && spec.value < budget) status = 'UNDER';
  return {
    id: spec.id,
    figure: spec.figure,
    value: spec.value,
    unit: spec.unit,
    budget,
    better,
    status,
    note: spec.note,
    measuredAt: new Date().toISOString(),
    load: [startLoad, load1m()],
    ...(spec.detail ? { detail: spec.detail } : {}),
  };
}

/** Runs a measurement and stamps its rows with the load before and after it. */
export async function measured(fn: () => Promise<RowSpec[]> | RowSpec[]): Promise<Row[]> {
  const start = load1m();
  const specs = await fn();
  return specs.map((s) => row(s, start));
}

export function fmt(value: number | null, unit: Unit): string {
  if (value === null) return '—';
  switch (unit) {
    case 'ms':
      return value < 10 ? `${value.toFixed(1)} ms` : `${value.toFixed(0)} ms`;
    case 'msg/s':
      return `${Math.round(value).toLocaleString('en-US')} msg/s`;
    case '%':
      return `${value.toFixed(0)} %`;
    case 'MB':
      return `${value.toFixed(2)} MB`;
    case 'KB':
      return `${value.toFixed(1)} KB`;
    case 'B':
      return `${Math.round(value).toLocaleString('en-US')} B`;
    case 'B/value':
      return `${value.toFixed(2)} B/value`;
    case 's':
      return `${value.toFixed(1)} s`;
    case 'count':
      return Math.round(value).toLocaleString('en-US');
    case 'MB/10 min':
      return `${value.toFixed(2)} MB/10 min`;
  }
}

export function fmtBudget(r: Pick<Row, 'budget' | 'unit' | 'better'>): string {
  if (r.budget === null) return '—';
  const amount = fmt(r.budget, r.unit).replace(/\.0+ /, ' ');
  return `${r.better === 'lower' ? '≤' : '≥'} ${amount}`;
}
