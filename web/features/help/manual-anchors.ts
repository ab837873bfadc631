/**
 * Sections of the offline manual (anchors of locales/<lang>/manual.md) that other pages link to
 * as `/offline-word#<anchor>`; tests/web/manual.test.ts checks that each exists in every language.
 */
export const workbenchManualSections = { provisioning: 'provisioning', mqtt: 'mqtt', license: 'license' } as const;
