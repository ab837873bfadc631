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
  /** Shown only when this holds for the page's subject (a gateway's sub-devices); always when absent. */
  shownFor?: (props: P) => boolean;
}

export interface TabRegistry<P> {
  /** The tabs in display order; given the page's subject, only those shown for it. */
  all(props?: P): readonly TabEntry<P>[];
  /** The tab `key` names (among those shown for `props`, when given), or the first tab. */
  find(key: string | null | undefined, props?: P): TabEntry<P>;
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
  const shown = (props?: P): readonly TabEntry<P>[] => (props ? sorted.filter((tab) => tab.shownFor?.(props) ?? true) : sorted);
  return {
    all: shown,
    find: (key, props) => {
      const tabs = shown(props);
      return tabs.find((tab) => tab.key === key) ?? tabs[0]!;
    },
    namespaces: () => [...new Set(sorted.map((tab) => tab.titleKey.split(':')[0]!))],
  };
}
