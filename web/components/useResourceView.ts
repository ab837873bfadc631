/** The table/card choice of a ResourceTable, kept in the URL's `view` parameter so a reload or a shared link keeps it. */
import { useState } from 'react';
import type { ResourceView } from './ResourceViewSwitch.tsx';

function viewFromUrl(fallback: ResourceView): ResourceView {
  const view = new URLSearchParams(window.location.search).get('view');
  return view === 'card' || view === 'table' ? view : fallback;
}

function writeViewToUrl(view: ResourceView, fallback: ResourceView): void {
  const query = new URLSearchParams(window.location.search);
  if (view === fallback) query.delete('view');
  else query.set('view', view);
  const qs = query.toString();
  window.history.replaceState(window.history.state, '', `${window.location.pathname}${qs ? `?${qs}` : ''}${window.location.hash}`);
}

/** A table without cards is always shown as a table, whatever the URL says. */
export function useResourceView(hasCards: boolean, defaultView: ResourceView): [ResourceView, (view: ResourceView) => void] {
  const [view, setView] = useState<ResourceView>(() => (hasCards ? viewFromUrl(defaultView) : 'table'));
  const changeView = (value: ResourceView): void => {
    setView(value);
    writeViewToUrl(value, defaultView);
  };
  return [view, changeView];
}
