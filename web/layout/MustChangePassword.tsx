/**
 * After an administrator's password reset the user chooses their own before anything else: the
 * change-password dialog stays open until it succeeds (which ends the session and shows sign-in).
 */
import { lazy, Suspense, type JSX } from 'react';
import { useMustChangePassword } from '../stores/permissions.ts';

const ChangePasswordModal = lazy(() =>
  import('../features/user/ChangePasswordModal.tsx').then((m) => ({ default: m.ChangePasswordModal })),
);

export function MustChangePassword(): JSX.Element | null {
  const must = useMustChangePassword();
  if (!must) return null;
  return (
    <Suspense fallback={null}>
      {/* Closing is refused: the flag clears only when the server has the new password. */}
      <ChangePasswordModal visible forced onClose={() => undefined} />
    </Suspense>
  );
}
