/** Right side of the header: fullscreen, language, theme, notifications, settings drawer and the user popover. */
import type { JSX, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import Button from '@arco-design/web-react/es/Button';
import Tooltip from '@arco-design/web-react/es/Tooltip';
import IconFullscreen from '@arco-design/web-react/icon/react-icon/IconFullscreen';
import IconFullscreenExit from '@arco-design/web-react/icon/react-icon/IconFullscreenExit';
import IconLanguage from '@arco-design/web-react/icon/react-icon/IconLanguage';
import IconMoon from '@arco-design/web-react/icon/react-icon/IconMoon';
import IconSettings from '@arco-design/web-react/icon/react-icon/IconSettings';
import IconSun from '@arco-design/web-react/icon/react-icon/IconSun';
import { useSettings } from '../stores/settings.ts';
import { switchLanguage, switchTheme } from './preferences.ts';
import { useFullscreen } from './useFullscreen.ts';
import { NotificationBell } from './NotificationBell.tsx';
import { UserMenu } from './UserMenu.tsx';

function Action({ label, icon, testId, onClick }: { label: string; icon: ReactNode; testId: string; onClick: () => void }): JSX.Element {
  return (
    <Tooltip content={label} position="bottom" mini>
      <Button shape="circle" type="secondary" className="header-action" icon={icon} aria-label={label} data-testid={testId} onClick={onClick} />
    </Tooltip>
  );
}

export function HeaderActions({ onOpenSettings }: { onOpenSettings: () => void }): JSX.Element {
  const { t } = useTranslation(['layout', 'common']);
  const themeMode = useSettings((s) => s.themeMode);
  const language = useSettings((s) => s.language);
  const [fullscreen, toggleFullscreen] = useFullscreen();
  const otherLanguage = language === 'zh_CN' ? 'en_US' : 'zh_CN';
  return (
    <div className="header-actions">
      <Action
        label={fullscreen ? t('layout:exitFullscreen') : t('layout:fullscreen')}
        icon={fullscreen ? <IconFullscreenExit /> : <IconFullscreen />}
        testId="header-fullscreen"
        onClick={toggleFullscreen}
      />
      <Action
        label={otherLanguage === 'en_US' ? t('layout:languageEn') : t('layout:languageZh')}
        icon={<IconLanguage />}
        testId="header-language"
        onClick={() => void switchLanguage(otherLanguage)}
      />
      <Action
        label={themeMode === 'dark' ? t('layout:themeLight') : t('layout:themeDark')}
        icon={themeMode === 'dark' ? <IconSun /> : <IconMoon />}
        testId="header-theme"
        onClick={() => switchTheme(themeMode === 'dark' ? 'light' : 'dark')}
      />
      <NotificationBell />
      <Action label={t('layout:settings')} icon={<IconSettings />} testId="settings-drawer-open" onClick={onOpenSettings} />
      <UserMenu />
    </div>
  );
}
