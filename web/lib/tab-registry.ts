/**
 * A detail page's tab bar as data: entries with a key (linkable), a title key, a sort slot and a
 * lazily loaded panel. The route table (web/routes.tsx) holds each detail page's registry and
 * hands it to the page, so adding a tab edits the table and the owning feature, never the page.
 */
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

export interface TabEntry<P> {
  /** Linkable name of the tab (a path segment or a `?tab=` value). */
  key: string;
  /** `namespace:key` of the tab title. */
  titleKey: `${string}:${string}`;
  sort: number;
  panel: LazyExoticComponent<ComponentType<P>>;
}

export interface TabRegistry<P> {
  /** The tabs in display order. */
  all(): readonly TabEntry<P>[];
  /** The tab `key` names, or the first tab. */
  find(key: string | null | undefined): TabEntry<P>;
  /** The namespaces the titles come from (to load with the page). */
  namespaces(): string[];
}

/** A named export of a module as a lazily loaded panel (the project has no default exports). */
export function lazyPanel<P, K extends string>(load: () => Promise<Record<K, ComponentType<P>>>, name: K): LazyExoticComponent<ComponentType<P>> {
  return lazy(() => load().then((m) => ({ default: m[name] })));
}

export function tabRegistry<P>(entries: readonly TabEntry<P>[]): TabRegistry<P> {
  const sorted = [...entries].sort((a, b) => a.sort - b.sort);
  if (sorted.length === 0) throw new Error('a tab registry needs at least one tab');
  return {
    all: () => sorted,
    find: (key) => sorted.find((tab) => tab.key === key) ?? sorted[0]!,
    namespaces: () => [...new Set(sorted.map((tab) => tab.titleKey.split(':')[0]!))],
  };
}
