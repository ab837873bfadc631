/**
 * i18next set-up. Each language is one lazily loaded chunk (locales/<lang>/index.ts lists its
 * namespaces), so the login page downloads only the language it shows.
 */
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { DEFAULT_LANGUAGE, languages, type Language } from './lang.ts';
import type zhResources from './locales/zh_CN/index.ts';

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'common';
    resources: typeof zhResources;
  }
}

type Resources = Record<string, Record<string, unknown>>;

const loaders: Record<Language, () => Promise<{ default: Resources }>> = {
  zh_CN: () => import('./locales/zh_CN/index.ts'),
  en_US: () => import('./locales/en_US/index.ts'),
};

async function ensureLoaded(lng: Language): Promise<void> {
  if (i18n.hasResourceBundle(lng, 'common')) return;
  const { default: resources } = await loaders[lng]();
  for (const [ns, bundle] of Object.entries(resources)) i18n.addResourceBundle(lng, ns, bundle, true, true);
}

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (languages as readonly string[]).includes(value);
}

export async function initI18n(lng: Language): Promise<typeof i18n> {
  await i18n.use(initReactI18next).init({
    lng,
    fallbackLng: DEFAULT_LANGUAGE,
    defaultNS: 'common',
    ns: [],
    resources: {},
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  await ensureLoaded(lng);
  if (lng !== DEFAULT_LANGUAGE) await ensureLoaded(DEFAULT_LANGUAGE);
  document.documentElement.lang = lng === 'zh_CN' ? 'zh-CN' : 'en';
  return i18n;
}

export async function changeLanguage(lng: Language): Promise<void> {
  await ensureLoaded(lng);
  await i18n.changeLanguage(lng);
  document.documentElement.lang = lng === 'zh_CN' ? 'zh-CN' : 'en';
}

export { i18n };
