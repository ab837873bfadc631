/** A page's open tab in its URL (`?tab=`), so a link or a reload opens the same tab. */

/** The `?tab=` value of the current URL, or null. */
export function tabFromUrl(): string | null {
  return new URLSearchParams(window.location.search).get('tab');
}

/** Names `key` in the URL without a history entry; the first tab is the page's bare URL. */
export function replaceTabInUrl(key: string, firstKey: string | undefined): void {
  const query = new URLSearchParams(window.location.search);
  if (key === firstKey) query.delete('tab');
  else query.set('tab', key);
  const qs = query.toString();
  window.history.replaceState(window.history.state, '', `${window.location.pathname}${qs ? `?${qs}` : ''}`);
}
