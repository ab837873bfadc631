/**
 * Whether the console is on a narrow screen (a phone: below 768 px), where the menu lives in a
 * drawer and list tables scroll inside their card. The same width is the `@media` bound of the
 * narrow rules in web/styles/narrow.css, web/layout/layout.css and web/components/ResourceTable.css.
 */
import { useSyncExternalStore } from 'react';

export const NARROW_QUERY = '(max-width: 767px)';

function subscribe(onChange: () => void): () => void {
  const query = window.matchMedia(NARROW_QUERY);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
}

function isNarrow(): boolean {
  return window.matchMedia(NARROW_QUERY).matches;
}

export function useNarrow(): boolean {
  return useSyncExternalStore(subscribe, isNarrow, () => false);
}
