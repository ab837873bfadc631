/** Logout from the user menu: unsaved changes are asked about first, then the logout itself is confirmed. */
import { useTranslation } from 'react-i18next';
import { navigate } from 'wouter/use-browser-location';
import Modal from '@arco-design/web-react/es/Modal';
import type { ButtonProps } from '@arco-design/web-react/es/Button/interface';
import { signOut } from '../features/auth/sessionApi.ts';
import { confirmLeave } from '../lib/leave-guard.ts';
import { consolePaths } from '../../server/contract/console-paths.ts';

/** Arco's button props have no slot for data attributes; tests find the confirm button by this. */
function testId(id: string): ButtonProps {
  return { 'data-testid': id } as unknown as ButtonProps;
}

export function useConfirmLogout(): () => Promise<void> {
  const { t } = useTranslation(['layout', 'common']);
  return async (): Promise<void> => {
    // Unsaved changes are asked about first; logging out would drop them as leaving a page does.
    if (!(await confirmLeave())) return;
    Modal.confirm({
      title: t('layout:logout.title'),
      content: t('layout:logout.content'),
      okText: t('layout:logout.ok'),
      cancelText: t('layout:logout.cancel'),
      className: 'logout-confirm',
      okButtonProps: testId('logout-confirm-ok'),
      cancelButtonProps: testId('logout-confirm-cancel'),
      onOk: async () => {
        await signOut();
        navigate(consolePaths.login, { replace: true });
      },
    });
  };
}
