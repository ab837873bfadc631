/**
 * Leaving a page with unsaved changes asks for confirmation. Forms report
 * whether they are dirty; the router and modals ask `confirmLeave()` before navigating away or
 * closing, the browser's own prompt covers reloads and closing the tab, and the browser's back
 * and forward buttons are held here (the address is put back, then moved on once agreed).
 */
import { useEffect, useId } from 'react';

const dirty = new Set<string>();
type Asker = () => Promise<boolean>;
let asker: Asker = async () => window.confirm('');

function onBeforeUnload(event: BeforeUnloadEvent): void {
  if (dirty.size > 0) {
    event.preventDefault();
    event.returnValue = '';
  }
}

/** Where the user is: back/forward with unsaved changes puts this address back. */
let here = typeof window === 'undefined' ? '' : currentAddress();

function currentAddress(): string {
  return `${window.location.pathname}${window.location.search}${window.location.hash}`;
}

/**
 * Runs before the router's listener (capture phase): with unsaved changes the address is put back
 * at once, so the router never renders the page being left; once the user agrees to leave, the
 * address moves on with replaceState, which the router follows.
 */
function onPopState(event: PopStateEvent): void {
  if (dirty.size === 0) {
    here = currentAddress();
    return;
  }
  const target = currentAddress();
  event.stopImmediatePropagation();
  window.history.pushState(null, '', here);
  void confirmLeave().then((ok) => {
    if (ok) window.history.replaceState(null, '', target);
  });
}

if (typeof window !== 'undefined') {
  window.addEventListener('beforeunload', onBeforeUnload);
  window.addEventListener('popstate', onPopState, { capture: true });
  // The router patches pushState/replaceState to fire these events: in-app moves update `here`.
  for (const type of ['pushState', 'replaceState']) window.addEventListener(type, () => (here = currentAddress()));
}

export function hasUnsavedChanges(): boolean {
  return dirty.size > 0;
}

/** The layout installs the localized confirmation dialog here once. */
export function setLeaveAsker(fn: Asker): void {
  asker = fn;
}

/** Resolves true when nothing is dirty or the user agreed to discard changes. */
export async function confirmLeave(): Promise<boolean> {
  if (dirty.size === 0) return true;
  const ok = await asker();
  if (ok) dirty.clear();
  return ok;
}

/** Marks the calling component dirty while `isDirty` is true; cleared on unmount. */
export function useLeaveGuard(isDirty: boolean): void {
  const id = useId();
  useEffect(() => {
    if (isDirty) dirty.add(id);
    else dirty.delete(id);
    return () => {
      dirty.delete(id);
    };
  }, [id, isDirty]);
}
