/**
 * Which columns of a list table the user hid, remembered per table in local storage (one entry
 * for every table, keyed by the table's test id, which is unique per list page) without expiry:
 * a column choice is a preference, like the settings drawer's.
 */
import type { ReactNode } from 'react';
import { useState } from 'react';
import type { ColumnProps } from '@arco-design/web-react/es/Table';
import { storage, StorageKey } from '../lib/storage.ts';

type HiddenByTable = Record<string, string[]>;

/** A column's identity: its `key`, else its `dataIndex`. */
export function columnId(column: ColumnProps<unknown>): string {
  return String(column.key ?? column.dataIndex ?? '');
}

/**
 * A column the user may hide: it has an identity and a text title to list it by, and is not
 * fixed (the sticky actions column always stays, or the row could not be acted on).
 */
export function isChoosable(column: ColumnProps<unknown>): boolean {
  return columnId(column) !== '' && !column.fixed && typeof column.title === 'string';
}

function readHidden(table: string): string[] {
  return storage.get<HiddenByTable>(StorageKey.TABLE_COLUMNS)?.[table] ?? [];
}

function writeHidden(table: string, hidden: string[]): void {
  const all = { ...storage.get<HiddenByTable>(StorageKey.TABLE_COLUMNS) };
  if (hidden.length) all[table] = hidden;
  else delete all[table];
  storage.set(StorageKey.TABLE_COLUMNS, all, { persistent: true, ttlMs: null });
}

export interface ColumnChoice {
  hidden: ReadonlySet<string>;
  setShown(id: string, shown: boolean): void;
  reset(): void;
}

export function useColumnChoice(table: string): ColumnChoice {
  const [hidden, setHidden] = useState<string[]>(() => readHidden(table));
  const update = (next: string[]): void => {
    setHidden(next);
    writeHidden(table, next);
  };
  return {
    hidden: new Set(hidden),
    setShown: (id, shown) => update(shown ? hidden.filter((h) => h !== id) : [...new Set([...hidden, id])]),
    reset: () => update([]),
  };
}

/** The chooser's entries: every choosable column with its label. */
export function choosableColumns(columns: ColumnProps<unknown>[]): { id: string; label: ReactNode }[] {
  return columns.filter(isChoosable).map((c) => ({ id: columnId(c), label: c.title }));
}
