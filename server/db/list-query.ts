/**
 * Pieces of list queries shared by every paged resource: a WHERE builder that keeps clauses and
 * their parameters together, LIKE patterns that treat user input literally, whitelisted ORDER BY
 * and the page window.
 */
import type { SQLInputValue } from 'node:sqlite';
import type { SortOrder } from '../contract/common.ts';

export class Where {
  private readonly clauses: string[] = [];
  readonly params: SQLInputValue[] = [];

  /** Adds `clause` (with `?` placeholders for `params`) joined by AND. */
  add(clause: string, ...params: SQLInputValue[]): this {
    this.clauses.push(clause);
    this.params.push(...params);
    return this;
  }

  get sql(): string {
    return this.clauses.length ? `WHERE ${this.clauses.join(' AND ')}` : '';
  }
}

/** `%text%` for `LIKE ? ESCAPE '\'`: the user's %, _ and \ match themselves (names may hold _). */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * ORDER BY over whitelisted columns only (`columns` maps the API's sortField to SQL), or the whole
 * `fallback` order when no field is given (a field without an order sorts ascending). `tieBreak`
 * (the rowid: insertion order, since rows made in one millisecond share their time) keeps pages
 * stable when sort values repeat.
 */
export function orderBy<F extends string>(
  columns: Record<F, string>,
  field: F | undefined,
  order: SortOrder | undefined,
  fallback: string,
  tieBreak: string,
): string {
  if (!field) return `ORDER BY ${fallback}`;
  const direction = order === 'descend' ? 'DESC' : 'ASC';
  return `ORDER BY ${columns[field]} ${direction}, ${tieBreak} ${direction}`;
}

/** LIMIT/OFFSET of a 1-based page. */
export function pageWindow(page: number, pageSize: number): { limit: number; offset: number } {
  return { limit: pageSize, offset: (page - 1) * pageSize };
}
