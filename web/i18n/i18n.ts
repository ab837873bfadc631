/**
 * i18next set-up. Every namespace of every language is its own small chunk, fetched when a
 * component first asks for it (`useTranslation('guide')` suspends until it is there), so the login
 * page downloads only the few namespaces it shows and the bundle does not grow with every feature.
 * namespaces.ts lists the namespaces and gives the keys their types.
 */
import i18n, { type BackendModule, type ReadCallback } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { DEFAULT_LANGUAGE, languages, type Language } from '../../server/contract/languages.ts';
import type { Resources } from './namespaces.ts';

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'common';
    resources: Resources;
  }
}

/**
 * Needed before any page renders: the HTTP client's messages and shared words. The server error
 * catalogue (`errors`) grows with every feature; the main layout loads it for console pages.
 */
const preloadNamespaces = ['common', 'http'];

const chunkBackend: BackendModule = {
  type: 'backend',
  init() {},
  read(lng: string, ns: string, callback: ReadCallback) {
    // esbuild turns this template into one chunk per locales/<lang>/<ns>.json file.
    import(`../../locales/${lng}/${ns}.json`).then(
      (mod: { default: Record<string, unknown> }) => callback(null, mod.default),
      (err: Error) => callback(err, false),
    );
  },
};

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (languages as readonly string[]).includes(value);
}

function setDocumentLanguage(lng: Language): void {
  document.documentElement.lang = lng === 'zh_CN' ? 'zh-CN' : 'en';
}

export async function initI18n(lng: Language): Promise<typeof i18n> {
  await i18n
    .use(chunkBackend)
    .use(initReactI18next)
    .init({
      lng,
      fallbackLng: DEFAULT_LANGUAGE,
      supportedLngs: [...languages],
      // Keys are zh_CN/en_US; without this i18next would also look for a bare "zh" or "en" file.
      load: 'currentOnly',
      ns: preloadNamespaces,
      defaultNS: 'common',
      interpolation: { escapeValue: false },
      returnNull: false,
    });
  setDocumentLanguage(lng);
  return i18n;
}

/** Loads the namespaces already in use for `lng`, then switches (no flash of raw keys). */
export async function changeLanguage(lng: Language): Promise<void> {
  await i18n.changeLanguage(lng);
  setDocumentLanguage(lng);
}

export { i18n };
