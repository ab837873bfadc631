/**
 * Leaving a page with unsaved changes asks for confirmation. Forms report
 * whether they are dirty; the router and modals ask `confirmLeave()` before navigating away or
 * closing, the browser's own prompt covers reloads and closing the tab, and the browser's back
 * and forward buttons are held here (the address is put back, then moved on once agreed).
 * A guard may bring its own question (the thing model offers to publish its saved draft): it is
 * asked on in-app moves and back/forward, not on reload or tab close, since nothing is lost there.
 */
import { useEffect, useId, useRef } from 'react';

/** Resolves true when the user may leave. */
export type LeaveQuestion = () => Promise<boolean>;

/** Dirty guards by id: `null` asks the common "discard unsaved changes?", else the guard's own question. */
const dirty = new Map<string, LeaveQuestion | null>();
let asker: LeaveQuestion = async () => window.confirm('');

function onBeforeUnload(event: BeforeUnloadEvent): void {
  if ([...dirty.values()].includes(null)) {
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
export function setLeaveAsker(fn: LeaveQuestion): void {
  asker = fn;
}

/**
 * Resolves true when nothing is dirty or the user agreed to every question: the common one once
 * for all plain guards, then each guard's own.
 */
export async function confirmLeave(): Promise<boolean> {
  if (dirty.size === 0) return true;
  const questions = [...dirty.values()];
  if (questions.includes(null) && !(await asker())) return false;
  for (const question of questions) if (question && !(await question())) return false;
  dirty.clear();
  return true;
}

/**
 * Marks the calling component dirty while `isDirty` is true; cleared on unmount. `question`
 * replaces the common "discard unsaved changes?" for this guard (its latest version is asked).
 */
export function useLeaveGuard(isDirty: boolean, question?: LeaveQuestion): void {
  const id = useId();
  const latest = useRef(question);
  useEffect(() => {
    latest.current = question;
  });
  const own = question !== undefined;
  useEffect(() => {
    if (isDirty) dirty.set(id, own ? () => latest.current!() : null);
    else dirty.delete(id);
    return () => {
      dirty.delete(id);
    };
  }, [id, isDirty, own]);
}
