/**
 * The settings drawer (width 300): theme and colour preset, navigation mode, page width,
 * breadcrumb, gray and colour-weak modes, fullscreen and language. Every change is persisted
 * through updateSettings and applied at once (main.tsx re-applies the theme on each change).
 */
import type { JSX, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import Button from '@arco-design/web-react/es/Button';
import Drawer from '@arco-design/web-react/es/Drawer';
import InputNumber from '@arco-design/web-react/es/InputNumber';
import Message from '@arco-design/web-react/es/Message';
import Radio from '@arco-design/web-react/es/Radio';
import Switch from '@arco-design/web-react/es/Switch';
import {
  ALARM_POLL_INTERVAL_MAX_S,
  ALARM_POLL_INTERVAL_MIN_S,
  ALARM_POPUP_DURATION_MAX_S,
  ALARM_POPUP_DURATION_MIN_S,
  colorPresets,
  updateSettings,
  useSettings,
} from '../stores/settings.ts';
import type { Language } from '../../server/contract/languages.ts';
import { resetSettings, switchLanguage, switchTheme } from './preferences.ts';
import { useFullscreen } from './useFullscreen.ts';
import { useReturnFocus } from '../lib/return-focus.ts';

export const SETTINGS_DRAWER_WIDTH = 300;

interface Choice<T extends string> {
  value: T;
  label: string;
}

interface ChoiceRowProps<T extends string> {
  /** Used for the label id and the test ids (`settings-<id>`, `settings-<id>-<value>`). */
  id: string;
  label: string;
  value: T;
  choices: Choice<T>[];
  onChange: (value: T) => void;
}

/** Label above a full-width button group, so labels and options fit in both languages. */
function ChoiceRow<T extends string>({ id, label, value, choices, onChange }: ChoiceRowProps<T>): JSX.Element {
  return (
    <div className="settings-row settings-row--stacked">
      <span className="settings-row__label" id={`settings-${id}-label`}>
        {label}
      </span>
      <Radio.Group
        type="button"
        size="small"
        aria-labelledby={`settings-${id}-label`}
        value={value}
        onChange={onChange}
        data-testid={`settings-${id}`}
      >
        {choices.map((c) => (
          <Radio key={c.value} value={c.value} data-testid={`settings-${id}-${c.value}`}>
            {c.label}
          </Radio>
        ))}
      </Radio.Group>
    </div>
  );
}

interface SwitchRowProps {
  id: string;
  label: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
}

function SwitchRow({ id, label, checked, onChange }: SwitchRowProps): JSX.Element {
  return (
    <div className="settings-row">
      <span className="settings-row__label" id={`settings-${id}-label`}>
        {label}
      </span>
      <Switch size="small" aria-labelledby={`settings-${id}-label`} checked={checked} onChange={onChange} data-testid={`settings-${id}`} />
    </div>
  );
}

/** Colour swatches as a radio group: arrow keys move between them, each is named for screen readers. */
function PresetRow({ value }: { value: string }): JSX.Element {
  const { t } = useTranslation('settings');
  return (
    <div className="settings-row settings-row--stacked">
      <span className="settings-row__label" id="settings-preset-label">
        {t('colorPreset')}
      </span>
      <Radio.Group
        className="settings-swatches"
        aria-labelledby="settings-preset-label"
        value={value.toUpperCase()}
        onChange={(preset: string) => {
          const chosen = colorPresets.find((p) => p.preset === preset);
          if (chosen) updateSettings({ colorPreset: chosen.preset, primaryColor: chosen.primary });
        }}
        data-testid="settings-preset"
      >
        {colorPresets.map((p) => (
          <Radio key={p.name} value={p.preset} aria-label={t(`preset.${p.name}`)} title={t(`preset.${p.name}`)} data-testid={`settings-preset-${p.name}`}>
            {({ checked }) => <span className={checked ? 'settings-swatch settings-swatch--checked' : 'settings-swatch'} style={{ background: p.preset }} />}
          </Radio>
        ))}
      </Radio.Group>
    </div>
  );
}

interface NumberRowProps {
  id: string;
  label: string;
  value: number;
  min: number;
  max: number;
  suffix: string;
  onChange: (value: number) => void;
}

/** A whole number with its unit; an empty or out-of-range entry keeps the last valid value. */
function NumberRow({ id, label, value, min, max, suffix, onChange }: NumberRowProps): JSX.Element {
  return (
    <div className="settings-row">
      <span className="settings-row__label" id={`settings-${id}-label`}>
        {label}
      </span>
      <InputNumber
        size="small"
        style={{ width: 110 }}
        min={min}
        max={max}
        precision={0}
        suffix={suffix}
        value={value}
        aria-labelledby={`settings-${id}-label`}
        onChange={(v) => {
          if (typeof v === 'number' && v >= min && v <= max) onChange(v);
        }}
        data-testid={`settings-${id}`}
      />
    </div>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }): JSX.Element {
  return (
    <section>
      <h3 className="settings-section">{title}</h3>
      {children}
    </section>
  );
}

export function SettingsDrawer({ visible, onClose }: { visible: boolean; onClose: () => void }): JSX.Element {
  const { t } = useTranslation(['settings', 'layout']);
  const s = useSettings();
  const [fullscreen, toggleFullscreen] = useFullscreen();
  const returnFocus = useReturnFocus(visible);

  return (
    <Drawer
      width={SETTINGS_DRAWER_WIDTH}
      title={t('settings:title')}
      visible={visible}
      onCancel={onClose}
      afterClose={returnFocus}
      footer={null}
      className="settings-drawer"
      data-testid="settings-drawer"
    >
      <Section title={t('settings:sectionTheme')}>
        <ChoiceRow
          id="theme"
          label={t('settings:theme')}
          value={s.themeMode}
          onChange={switchTheme}
          choices={[
            { value: 'light', label: t('settings:themeLight') },
            { value: 'dark', label: t('settings:themeDark') },
          ]}
        />
        <PresetRow value={s.colorPreset} />
      </Section>

      <Section title={t('settings:sectionLayout')}>
        <ChoiceRow
          id="nav"
          label={t('settings:navMode')}
          value={s.navMode}
          onChange={(navMode) => updateSettings({ navMode })}
          choices={[
            { value: 'sidebar', label: t('settings:navSidebar') },
            { value: 'top', label: t('settings:navTop') },
            { value: 'mix', label: t('settings:navMix') },
          ]}
        />
        <ChoiceRow
          id="width"
          label={t('settings:pageWidth')}
          value={s.pageWidth}
          onChange={(pageWidth) => updateSettings({ pageWidth })}
          choices={[
            { value: 'fluid', label: t('settings:widthFluid') },
            { value: 'fixed', label: t('settings:widthFixed') },
          ]}
        />
        <SwitchRow
          id="breadcrumb"
          label={t('settings:breadcrumb')}
          checked={s.showBreadcrumb}
          onChange={(showBreadcrumb) => updateSettings({ showBreadcrumb })}
        />
        <SwitchRow
          id="menu-mode"
          label={t('settings:backEndMenu')}
          checked={s.menuMode === 'back'}
          onChange={(back) => updateSettings({ menuMode: back ? 'back' : 'front' })}
        />
      </Section>

      <Section title={t('settings:sectionDisplay')}>
        <SwitchRow id="gray" label={t('settings:grayMode')} checked={s.grayMode} onChange={(grayMode) => updateSettings({ grayMode })} />
        <SwitchRow
          id="color-weak"
          label={t('settings:colorWeak')}
          checked={s.colorWeak}
          onChange={(colorWeak) => updateSettings({ colorWeak })}
        />
        <SwitchRow id="fullscreen" label={t('settings:fullscreen')} checked={fullscreen} onChange={toggleFullscreen} />
        <ChoiceRow<Language>
          id="language"
          label={t('settings:language')}
          value={s.language}
          onChange={(language) => void switchLanguage(language)}
          choices={[
            { value: 'zh_CN', label: t('layout:languageZh') },
            { value: 'en_US', label: t('layout:languageEn') },
          ]}
        />
      </Section>

      <Section title={t('settings:sectionAlarm')}>
        <NumberRow
          id="alarm-interval"
          label={t('settings:alarmPollInterval')}
          value={Math.round(s.alarmPollIntervalMs / 1000)}
          min={ALARM_POLL_INTERVAL_MIN_S}
          max={ALARM_POLL_INTERVAL_MAX_S}
          suffix={t('settings:seconds')}
          onChange={(seconds) => updateSettings({ alarmPollIntervalMs: seconds * 1000 })}
        />
        <NumberRow
          id="alarm-duration"
          label={t('settings:alarmPopupDuration')}
          value={s.alarmPopupDurationS}
          min={ALARM_POPUP_DURATION_MIN_S}
          max={ALARM_POPUP_DURATION_MAX_S}
          suffix={t('settings:seconds')}
          onChange={(alarmPopupDurationS) => updateSettings({ alarmPopupDurationS })}
        />
      </Section>

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
