/**
 * Language choice on the pages shown before sign-in: one button per language, the current one
 * pressed. Two plain buttons keep the login page free of a dropdown and its popup machinery.
 */
import type { JSX } from 'react';
import IconLanguage from '@arco-design/web-react/icon/react-icon/IconLanguage';
import { useTranslation } from 'react-i18next';
import { isLanguage } from '../../i18n/i18n.ts';
import { languages, type Language } from '../../../server/contract/languages.ts';
import { switchLanguage } from '../../layout/preferences.ts';
import './auth-pages.css';

export function LanguageSwitch(): JSX.Element {
  const { t, i18n } = useTranslation('auth');
  const current: Language = isLanguage(i18n.language) ? i18n.language : 'zh_CN';
  return (
    <div className="ec-lang-switch" role="group" aria-label={t('language')} data-testid="auth-language">
      <IconLanguage className="ec-lang-switch__icon" aria-hidden />
      {languages.map((lng) => (
        <button
          key={lng}
          type="button"
          lang={lng === 'zh_CN' ? 'zh-CN' : 'en'}
          className={lng === current ? 'ec-lang-switch__item is-current' : 'ec-lang-switch__item'}
          aria-pressed={lng === current}
          data-testid={`auth-language-${lng}`}
          onClick={() => void switchLanguage(lng)}
        >
          {t(`languages.${lng}`)}
        </button>
      ))}
    </div>
  );
}
