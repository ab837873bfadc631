/**
 * Focus goes back to whatever opened a drawer or modal once it has closed. Arco (2.66) moves focus
 * into a drawer or modal when it opens and locks it there, but its focus lock is created without
 * `returnFocus`, so on close focus falls to <body> and a keyboard user starts over from the top.
 * Pass the returned function as the drawer's or modal's `afterClose` (after the exit animation, when
 * the lock has let go).
 */
import { useCallback, useLayoutEffect, useRef } from 'react';

const DIALOGS = '.arco-drawer-wrapper, .arco-modal-wrapper';

export function useReturnFocus(visible: boolean): () => void {
  const opener = useRef<HTMLElement | null>(null);
  // A layout effect runs before Arco's own effect moves focus into the dialog.
  useLayoutEffect(() => {
    if (visible && document.activeElement instanceof HTMLElement && document.activeElement !== document.body) {
      opener.current = document.activeElement;
    }
  }, [visible]);
  return useCallback(() => {
    const target = opener.current;
    opener.current = null;
    const active = document.activeElement;
    // Only when focus was left in the closed dialog or fell to <body>, never away from where the user went.
    const stranded = !active || active === document.body || Boolean(active.closest(DIALOGS));
    if (target?.isConnected && stranded) target.focus();
  }, []);
}
