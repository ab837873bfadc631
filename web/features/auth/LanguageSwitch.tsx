/** Language choice on the pages shown before sign-in; the signed-in header has its own. */
import type { JSX } from 'react';
import { Button, Dropdown, Menu } from '@arco-design/web-react';
import { IconLanguage } from '@arco-design/web-react/icon';
import { useTranslation } from 'react-i18next';
import { isLanguage } from '../../i18n/i18n.ts';
import { languages, type Language } from '../../i18n/lang.ts';
import { switchLanguage } from '../../layout/preferences.ts';

export function LanguageSwitch(): JSX.Element {
  const { t, i18n } = useTranslation('auth');
  const current: Language = isLanguage(i18n.language) ? i18n.language : 'zh_CN';
  const menu = (
    <Menu selectedKeys={[current]} onClickMenuItem={(key) => isLanguage(key) && void switchLanguage(key)}>
      {languages.map((lng) => (
        <Menu.Item key={lng} data-testid={`auth-language-${lng}`}>
          {t(`languages.${lng}`)}
        </Menu.Item>
      ))}
    </Menu>
  );
  return (
    <Dropdown droplist={menu} position="br" trigger="click">
      <Button type="text" icon={<IconLanguage />} aria-label={t('language')} data-testid="auth-language">
        {t(`languages.${current}`)}
      </Button>
    </Dropdown>
  );
}
