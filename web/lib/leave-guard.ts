/**
 * Leaving a page with unsaved changes asks for confirmation. Forms report
 * whether they are dirty; the router and modals ask `confirmLeave()` before navigating away or
 * closing, and the browser's own prompt covers reloads and closing the tab.
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
if (typeof window !== 'undefined') window.addEventListener('beforeunload', onBeforeUnload);

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
