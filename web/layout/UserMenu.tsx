/**
 * The user popover: avatar and name, edit user info, change password, system config (operation
 * management in a new tab), licence, theme, language, fullscreen and logout, which asks
 * for confirmation first. Items are buttons so Tab and Enter reach them; Esc closes.
 */
import { lazy, Suspense, useRef, useState, type JSX } from 'react';
import { useTranslation } from 'react-i18next';
import Popover from '@arco-design/web-react/es/Popover';
import { useSession } from '../stores/session.ts';
import { useSettings } from '../stores/settings.ts';
import { useFullscreen } from './useFullscreen.ts';
import { useConfirmLogout } from './useConfirmLogout.ts';
import { UserMenuPanel } from './UserMenuPanel.tsx';
import { userMenuTrigger } from './userMenuTrigger.tsx';

const ProfileModal = lazy(() => import('../features/user/ProfileModal.tsx').then((m) => ({ default: m.ProfileModal })));
const ChangePasswordModal = lazy(() =>
  import('../features/user/ChangePasswordModal.tsx').then((m) => ({ default: m.ChangePasswordModal })),
);
const LicenseModal = lazy(() => import('../features/license/LicenseModal.tsx').then((m) => ({ default: m.LicenseModal })));

export function UserMenu(): JSX.Element {
  const { t } = useTranslation(['layout', 'common']);
  const user = useSession((s) => s.user);
  const themeMode = useSettings((s) => s.themeMode);
  const language = useSettings((s) => s.language);
  const [fullscreen, toggleFullscreen] = useFullscreen();
  const [open, setOpen] = useState(false);
  const [profile, setProfile] = useState<boolean | null>(null);
  const [password, setPassword] = useState<boolean | null>(null);
  const [license, setLicense] = useState<boolean | null>(null);
  const triggerRef = useRef<HTMLButtonElement>(null);
  const panelRef = useRef<HTMLDivElement>(null);

  const name = user?.realName || user?.username || '';
  const close = (): void => setOpen(false);
  const run = (action: () => void) => (): void => {
    close();
    // Focus leaves the closing popover for its button, so a modal opened here returns it there.
    triggerRef.current?.focus();
    action();
  };

  const confirmLogout = useConfirmLogout();

  const panel = (
    <UserMenuPanel
      panelRef={panelRef}
      user={user}
      name={name}
      themeMode={themeMode}
      language={language}
      fullscreen={fullscreen}
      onEscape={() => {
        close();
        triggerRef.current?.focus();
      }}
      run={run}
      onProfile={() => setProfile(true)}
      onPassword={() => setPassword(true)}
      onLicense={() => setLicense(true)}
      onToggleFullscreen={toggleFullscreen}
      onLogout={() => void confirmLogout()}
    />
  );

  return (
    <>
      <Popover
        trigger="click"
        position="br"
        popupVisible={open}
        onVisibleChange={(visible) => {
          setOpen(visible);
          // Move focus into the panel so keyboard users continue there.
          if (visible) setTimeout(() => panelRef.current?.querySelector<HTMLButtonElement>('button')?.focus(), 50);
        }}
        content={panel}
        className="user-menu-popover"
      >
        {userMenuTrigger({ buttonRef: triggerRef, open, user, name, label: t('layout:user.menu') })}
      </Popover>
      {profile !== null ? (
        <Suspense fallback={null}>
          <ProfileModal visible={profile} onClose={() => setProfile(false)} />
        </Suspense>
      ) : null}
      {password !== null ? (
        <Suspense fallback={null}>
          <ChangePasswordModal visible={password} onClose={() => setPassword(false)} />
        </Suspense>
      ) : null}
      {license !== null ? (
        <Suspense fallback={null}>
          <LicenseModal visible={license} onClose={() => setLicense(false)} />
        </Suspense>
      ) : null}
    </>
  );
}
