/** The user popover's content: who is signed in, profile, password, system config, license, theme, language, fullscreen, logout. */
import type { JSX, RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import Avatar from '@arco-design/web-react/es/Avatar';
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
import { openInNewTab } from '../lib/navigation.ts';
import { consolePaths } from '../../server/contract/console-paths.ts';
import type { UserInfo } from '../../server/contract/user.ts';
import type { ThemeMode } from '../stores/settings.ts';
import { languages, type Language } from '../../server/contract/languages.ts';
import { switchLanguage, switchTheme } from './preferences.ts';
import { initials } from './initials.ts';
import { Permitted } from '../components/Permitted.tsx';
import { UserMenuItem } from './UserMenuItem.tsx';

const themes: readonly ThemeMode[] = ['light', 'dark'];

export interface UserMenuPanelProps {
  panelRef: RefObject<HTMLDivElement | null>;
  user: UserInfo | null;
  name: string;
  themeMode: ThemeMode;
  language: Language;
  fullscreen: boolean;
  onEscape: () => void;
  /** Wraps an item's action: closes the popover and returns focus to its button first. */
  run: (action: () => void) => () => void;
  onProfile: () => void;
  onPassword: () => void;
  onLicense: () => void;
  onToggleFullscreen: () => void;
  onLogout: () => void;
}

export function UserMenuPanel(props: UserMenuPanelProps): JSX.Element {
  const { user, name, themeMode, language, fullscreen, run } = props;
  const { t } = useTranslation(['layout', 'common']);
  return (
    <div
      className="user-menu"
      ref={props.panelRef}
      role="group"
      aria-label={t('layout:user.menu')}
      onKeyDown={(e) => {
        if (e.key === 'Escape') props.onEscape();
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
      <UserMenuItem icon={<IconEdit />} label={t('layout:user.profile')} testId="user-menu-profile" onClick={run(props.onProfile)} />
      <UserMenuItem icon={<IconLock />} label={t('layout:user.password')} testId="user-menu-password" onClick={run(props.onPassword)} />
      {/* The spec's system-config icon: operation management, in its own layout and a new tab. */}
      <Permitted perm="platform:info:update">
        <UserMenuItem
          icon={<IconSettings />}
          label={t('layout:user.systemConfig')}
          testId="user-menu-system-config"
          onClick={run(() => openInNewTab(consolePaths.operationManage))}
        />
      </Permitted>
      <UserMenuItem icon={<IconSafe />} label={t('layout:user.license')} testId="user-menu-license" onClick={run(props.onLicense)} />
      <div className="user-menu__divider" role="separator" />
      {themes.map((mode) => (
        <UserMenuItem
          key={mode}
          icon={mode === 'dark' ? <IconMoon /> : <IconSun />}
          label={mode === 'dark' ? t('layout:themeDark') : t('layout:themeLight')}
          testId={`user-menu-theme-${mode}`}
          active={themeMode === mode}
          onClick={() => switchTheme(mode)}
        />
      ))}
      {languages.map((lng) => (
        <UserMenuItem
          key={lng}
          icon={<IconLanguage />}
          label={lng === 'zh_CN' ? t('layout:languageZh') : t('layout:languageEn')}
          testId={`user-menu-lang-${lng}`}
          active={language === lng}
          onClick={() => void switchLanguage(lng)}
        />
      ))}
      <UserMenuItem
        icon={fullscreen ? <IconFullscreenExit /> : <IconFullscreen />}
        label={fullscreen ? t('layout:exitFullscreen') : t('layout:fullscreen')}
        testId="user-menu-fullscreen"
        onClick={run(props.onToggleFullscreen)}
      />
      <div className="user-menu__divider" role="separator" />
      <UserMenuItem icon={<IconPoweroff />} label={t('layout:user.logout')} testId="user-menu-logout" danger onClick={run(props.onLogout)} />
    </div>
  );
}
