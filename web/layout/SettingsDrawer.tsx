/**
 * The settings drawer (spec section 2, width 300): theme, navigation mode, page width,
 * breadcrumb, gray and colour-weak modes, fullscreen and language. Every change is persisted
 * through updateSettings and applied at once (main.tsx re-applies the theme on each change).
 */
import type { JSX, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import Button from '@arco-design/web-react/es/Button';
import Drawer from '@arco-design/web-react/es/Drawer';
import Message from '@arco-design/web-react/es/Message';
import Radio from '@arco-design/web-react/es/Radio';
import Switch from '@arco-design/web-react/es/Switch';
import { updateSettings, useSettings, type NavMode, type PageWidth, type ThemeMode } from '../stores/settings.ts';
import type { Language } from '../i18n/lang.ts';
import { resetSettings, switchLanguage, switchTheme } from './preferences.ts';
import { useFullscreen } from './useFullscreen.ts';

export const SETTINGS_DRAWER_WIDTH = 300;

interface RowProps {
  label: string;
  children: ReactNode;
  id: string;
  /** Label above a full-width control (radio groups) instead of beside it (switches). */
  stacked?: boolean;
}

function Row({ label, children, id, stacked = false }: RowProps): JSX.Element {
  return (
    <div className={stacked ? 'settings-row settings-row--stacked' : 'settings-row'}>
      <span className="settings-row__label" id={id}>
        {label}
      </span>
      <div className="settings-row__control">{children}</div>
    </div>
  );
}

export function SettingsDrawer({ visible, onClose }: { visible: boolean; onClose: () => void }): JSX.Element {
  const { t } = useTranslation(['settings', 'layout']);
  const s = useSettings();
  const [fullscreen, toggleFullscreen] = useFullscreen();

  return (
    <Drawer
      width={SETTINGS_DRAWER_WIDTH}
      title={t('settings:title')}
      visible={visible}
      onCancel={onClose}
      footer={null}
      className="settings-drawer"
      data-testid="settings-drawer"
    >
      <h3 className="settings-section">{t('settings:sectionTheme')}</h3>
      <Row stacked label={t('settings:theme')} id="settings-theme-label">
        <Radio.Group
          type="button"
          size="small"
          aria-labelledby="settings-theme-label"
          value={s.themeMode}
          onChange={(v: ThemeMode) => switchTheme(v)}
          data-testid="settings-theme"
        >
          <Radio value="light" data-testid="settings-theme-light">
            {t('settings:themeLight')}
          </Radio>
          <Radio value="dark" data-testid="settings-theme-dark">
            {t('settings:themeDark')}
          </Radio>
        </Radio.Group>
      </Row>

      <h3 className="settings-section">{t('settings:sectionLayout')}</h3>
      <Row stacked label={t('settings:navMode')} id="settings-nav-label">
        <Radio.Group
          type="button"
          size="small"
          aria-labelledby="settings-nav-label"
          value={s.navMode}
          onChange={(v: NavMode) => updateSettings({ navMode: v })}
          data-testid="settings-nav-mode"
        >
          <Radio value="sidebar" data-testid="settings-nav-sidebar">
            {t('settings:navSidebar')}
          </Radio>
          <Radio value="top" data-testid="settings-nav-top">
            {t('settings:navTop')}
          </Radio>
          <Radio value="mix" data-testid="settings-nav-mix">
            {t('settings:navMix')}
          </Radio>
        </Radio.Group>
      </Row>
      <Row stacked label={t('settings:pageWidth')} id="settings-width-label">
        <Radio.Group
          type="button"
          size="small"
          aria-labelledby="settings-width-label"
          value={s.pageWidth}
          onChange={(v: PageWidth) => updateSettings({ pageWidth: v })}
          data-testid="settings-page-width"
        >
          <Radio value="fluid" data-testid="settings-width-fluid">
            {t('settings:widthFluid')}
          </Radio>
          <Radio value="fixed" data-testid="settings-width-fixed">
            {t('settings:widthFixed')}
          </Radio>
        </Radio.Group>
      </Row>
      <Row label={t('settings:breadcrumb')} id="settings-breadcrumb-label">
        <Switch
          size="small"
          aria-labelledby="settings-breadcrumb-label"
          checked={s.showBreadcrumb}
          onChange={(v) => updateSettings({ showBreadcrumb: v })}
          data-testid="settings-breadcrumb"
        />
      </Row>

      <h3 className="settings-section">{t('settings:sectionDisplay')}</h3>
      <Row label={t('settings:grayMode')} id="settings-gray-label">
        <Switch
          size="small"
          aria-labelledby="settings-gray-label"
          checked={s.grayMode}
          onChange={(v) => updateSettings({ grayMode: v })}
          data-testid="settings-gray"
        />
      </Row>
      <Row label={t('settings:colorWeak')} id="settings-weak-label">
        <Switch
          size="small"
          aria-labelledby="settings-weak-label"
          checked={s.colorWeak}
          onChange={(v) => updateSettings({ colorWeak: v })}
          data-testid="settings-color-weak"
        />
      </Row>
      <Row label={t('settings:fullscreen')} id="settings-fullscreen-label">
        <Switch
          size="small"
          aria-labelledby="settings-fullscreen-label"
          checked={fullscreen}
          onChange={toggleFullscreen}
          data-testid="settings-fullscreen"
        />
      </Row>
      <Row stacked label={t('settings:language')} id="settings-language-label">
        <Radio.Group
          type="button"
          size="small"
          aria-labelledby="settings-language-label"
          value={s.language}
          onChange={(v: Language) => void switchLanguage(v)}
          data-testid="settings-language"
        >
          <Radio value="zh_CN" data-testid="settings-language-zh_CN">
            {t('layout:languageZh')}
          </Radio>
          <Radio value="en_US" data-testid="settings-language-en_US">
            {t('layout:languageEn')}
          </Radio>
        </Radio.Group>
      </Row>

      <Button
        long
        className="settings-reset"
        data-testid="settings-reset"
        onClick={() => {
          void resetSettings().then(() => Message.success(t('settings:resetDone')));
        }}
      >
        {t('settings:reset')}
      </Button>
    </Drawer>
  );
}
