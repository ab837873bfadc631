/**
 * The user popover: avatar and name, edit user info, change password, system
 * config (operation management in a new tab), theme, language, fullscreen and logout, which asks
 * for confirmation first. Items are buttons so Tab and Enter reach them; Esc closes.
 */
import { lazy, Suspense, useRef, useState, type JSX, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { navigate } from 'wouter/use-browser-location';
import Avatar from '@arco-design/web-react/es/Avatar';
import Modal from '@arco-design/web-react/es/Modal';
import Popover from '@arco-design/web-react/es/Popover';
import IconEdit from '@arco-design/web-react/icon/react-icon/IconEdit';
import IconFullscreen from '@arco-design/web-react/icon/react-icon/IconFullscreen';
import IconFullscreenExit from '@arco-design/web-react/icon/react-icon/IconFullscreenExit';
import IconLanguage from '@arco-design/web-react/icon/react-icon/IconLanguage';
import IconLock from '@arco-design/web-react/icon/react-icon/IconLock';
import IconMoon from '@arco-design/web-react/icon/react-icon/IconMoon';
import IconPoweroff from '@arco-design/web-react/icon/react-icon/IconPoweroff';
import IconSafe from '@arco-design/web-react/icon/react-icon/IconSafe';
import IconSettings from '@arco-design/web-react/icon/react-icon/IconSettings';
import IconSun from '@arco-design/web-react/icon/react-icon/IconSun';
import type { ButtonProps } from '@arco-design/web-react/es/Button/interface';
import { signOut } from '../features/auth/sessionApi.ts';
import { confirmLeave } from '../lib/leave-guard.ts';
import { openInNewTab } from '../lib/navigation.ts';
import { consolePaths } from '../../server/contract/console-paths.ts';
import { useSession } from '../stores/session.ts';
import { useSettings, type ThemeMode } from '../stores/settings.ts';
import { languages } from '../../server/contract/languages.ts';
import { switchLanguage, switchTheme } from './preferences.ts';
import { useFullscreen } from './useFullscreen.ts';
import { initials } from './initials.ts';
import { Permitted } from '../components/Permitted.tsx';

const ProfileModal = lazy(() => import('../features/user/ProfileModal.tsx').then((m) => ({ default: m.ProfileModal })));
const ChangePasswordModal = lazy(() =>
  import('../features/user/ChangePasswordModal.tsx').then((m) => ({ default: m.ChangePasswordModal })),
);
const LicenseModal = lazy(() => import('../features/license/LicenseModal.tsx').then((m) => ({ default: m.LicenseModal })));

/** Arco's button props have no slot for data attributes; tests find the confirm button by this. */
function testId(id: string): ButtonProps {
  return { 'data-testid': id } as unknown as ButtonProps;
}

interface ItemProps {
  icon: ReactNode;
  label: string;
  testId: string;
  onClick: () => void;
  active?: boolean;
  danger?: boolean;
}

const themes: readonly ThemeMode[] = ['light', 'dark'];

function Item({ icon, label, testId: id, onClick, active, danger }: ItemProps): JSX.Element {
  const cls = ['user-menu__item', active ? 'is-active' : '', danger ? 'is-danger' : ''].filter(Boolean).join(' ');
  return (
    <button type="button" className={cls} data-testid={id} aria-pressed={active} onClick={onClick}>
      <span className="user-menu__icon" aria-hidden="true">
        {icon}
      </span>
      {label}
    </button>
  );
}

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

  const confirmLogout = async (): Promise<void> => {
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

  const panel = (
    <div
      className="user-menu"
      ref={panelRef}
      role="group"
      aria-label={t('layout:user.menu')}
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          close();
          triggerRef.current?.focus();
        }
      }}
    >
      <div className="user-menu__who">
        <Avatar size={40} className="user-menu__avatar">
          {user?.avatar ? <img src={user.avatar} alt="" /> : initials(name)}
        </Avatar>
        <div className="user-menu__names">
          <strong data-testid="user-menu-name">{name}</strong>
          {user && user.realName && user.realName !== user.username ? <span>{user.username}</span> : null}
        </div>
      </div>
      <Item icon={<IconEdit />} label={t('layout:user.profile')} testId="user-menu-profile" onClick={run(() => setProfile(true))} />
      <Item icon={<IconLock />} label={t('layout:user.password')} testId="user-menu-password" onClick={run(() => setPassword(true))} />
      <Permitted perm="platform:info:update">
        <Item
          icon={<IconSettings />}
          label={t('layout:user.systemConfig')}
          testId="user-menu-system-config"
          onClick={run(() => openInNewTab(consolePaths.operationManage))}
        />
      </Permitted>
      <Item icon={<IconSafe />} label={t('layout:user.license')} testId="user-menu-license" onClick={run(() => setLicense(true))} />
      <div className="user-menu__divider" role="separator" />
      {themes.map((mode) => (
        <Item
          key={mode}
          icon={mode === 'dark' ? <IconMoon /> : <IconSun />}
          label={mode === 'dark' ? t('layout:themeDark') : t('layout:themeLight')}
          testId={`user-menu-theme-${mode}`}
          active={themeMode === mode}
          onClick={() => switchTheme(mode)}
        />
      ))}
      {languages.map((lng) => (
        <Item
          key={lng}
          icon={<IconLanguage />}
          label={lng === 'zh_CN' ? t('layout:languageZh') : t('layout:languageEn')}
          testId={`user-menu-lang-${lng}`}
          active={language === lng}
          onClick={() => void switchLanguage(lng)}
        />
      ))}
      <Item
        icon={fullscreen ? <IconFullscreenExit /> : <IconFullscreen />}
        label={fullscreen ? t('layout:exitFullscreen') : t('layout:fullscreen')}
        testId="user-menu-fullscreen"
        onClick={run(toggleFullscreen)}
      />
      <div className="user-menu__divider" role="separator" />
      <Item icon={<IconPoweroff />} label={t('layout:user.logout')} testId="user-menu-logout" danger onClick={run(() => void confirmLogout())} />
    </div>
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
        <button
          type="button"
          ref={triggerRef}
          className="header-user"
          data-testid="user-menu"
          aria-haspopup="true"
          aria-expanded={open}
        >
          {/* Named by its content, so the name begins with the visible user name (axe:
              label-content-name-mismatch); the initials only repeat it. */}
          <Avatar size={28} className="header-user__avatar" aria-hidden="true">
            {user?.avatar ? <img src={user.avatar} alt="" /> : initials(name)}
          </Avatar>
          <span className="header-user__name">{name}</span>
          <span className="visually-hidden">{t('layout:user.menu')}</span>
        </button>
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
