/**
 * In-app navigation that respects unsaved changes: the menu, breadcrumb, tabs and user popover
 * go through `navigateGuarded`, which asks `confirmLeave()` first (web/lib/leave-guard.ts).
 */
import { navigate } from 'wouter/use-browser-location';
import { i18n } from '../i18n/i18n.ts';
import { confirmLeave, setLeaveAsker } from './leave-guard.ts';

/** Navigates unless the user keeps their unsaved changes; resolves whether it navigated. */
export async function navigateGuarded(to: string, options: { replace?: boolean } = {}): Promise<boolean> {
  const here = `${window.location.pathname}${window.location.search}`;
  if (to === here) return true;
  if (!(await confirmLeave())) return false;
  navigate(to, options);
  return true;
}

/**
 * Opens a console path in a new tab. The opener is kept on purpose: the browser then copies this
 * tab's sessionStorage, so a session without "remember password" carries over to the new tab.
 */
export function openInNewTab(path: string): void {
  window.open(path, '_blank');
}

/**
 * Installs the localized leave dialog. Arco's Modal is loaded on first use so the entry chunk
 * (login page) does not carry it.
 */
export function installLeaveAsker(): void {
  setLeaveAsker(async () => {
    const { default: Modal } = await import('@arco-design/web-react/es/Modal');
    return new Promise<boolean>((resolve) => {
      Modal.confirm({
        title: i18n.t('common:unsavedTitle'),
        content: i18n.t('common:unsavedContent'),
        okText: i18n.t('common:leave'),
        cancelText: i18n.t('common:stay'),
        className: 'leave-confirm',
        okButtonProps: { status: 'warning', 'data-testid': 'leave-confirm-ok' } as Record<string, unknown>,
        cancelButtonProps: { 'data-testid': 'leave-confirm-cancel' } as Record<string, unknown>,
        onOk: () => resolve(true),
        onCancel: () => resolve(false),
      });
    });
  });
}
