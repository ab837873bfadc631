/** The languages of the console and of error messages; zh_CN is the default and fallback. */
export const languages = ['zh_CN', 'en_US'] as const;
export type Language = (typeof languages)[number];
export const DEFAULT_LANGUAGE: Language = 'zh_CN';

/** The Accept-Language value the server understands for each console language. */
export const acceptLanguage: Record<Language, string> = { zh_CN: 'zh-CN', en_US: 'en-US' };
