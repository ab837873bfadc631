/**
 * The signed-in user's console settings (the settings drawer), kept on the server so they follow
 * the user to another browser; the console caches them in local storage. Every field is optional:
 * the console fills what is missing with its defaults (web/stores/settings.ts), so a setting added
 * later needs no migration. PUT saves the fields it carries and keeps the others, so the layout
 * settings and the alarm popup's are saved by different parts of the console without erasing
 * each other.
 *
 * Fullscreen is not a setting: browsers only enter it from a click.
 */
import Type, { type Static } from 'typebox';
import { defineRoutes } from './route.ts';
import { ErrorBodySchema } from './errors.ts';
import { languages } from './languages.ts';

export const themeModes = ['light', 'dark'] as const;
export const navModes = ['sidebar', 'top', 'mix'] as const;
export const pageWidths = ['fluid', 'fixed'] as const;
export const menuModes = ['front', 'back'] as const;

const HEX_COLOR = '^#[0-9A-Fa-f]{6}$';

/**
 * Settings of the periodic alarm popup: a named object of its own so that its fields are added
 * here without touching the layout settings.
 */
export const AlarmPopupSettingsSchema = Type.Object({}, { additionalProperties: false });

export const UserSettingsSchema = Type.Object(
  {
    themeMode: Type.Optional(Type.Enum(themeModes)),
    colorPreset: Type.Optional(Type.String({ pattern: HEX_COLOR })),
    primaryColor: Type.Optional(Type.String({ pattern: HEX_COLOR })),
    navMode: Type.Optional(Type.Enum(navModes)),
    pageWidth: Type.Optional(Type.Enum(pageWidths)),
    showBreadcrumb: Type.Optional(Type.Boolean()),
    grayMode: Type.Optional(Type.Boolean()),
    colorWeak: Type.Optional(Type.Boolean()),
    language: Type.Optional(Type.Enum(languages)),
    menuCollapsed: Type.Optional(Type.Boolean()),
    menuMode: Type.Optional(Type.Enum(menuModes)),
    alarmPopup: Type.Optional(AlarmPopupSettingsSchema),
  },
  { additionalProperties: false },
);
export type UserSettings = Static<typeof UserSettingsSchema>;

const tags = ['user'];

export const userSettingsRoutes = defineRoutes({
  get: {
    method: 'GET',
    url: '/api/yt/user/me/settings',
    schema: { tags, summary: "The caller's console settings ({} until first saved)", response: { 200: UserSettingsSchema, 401: ErrorBodySchema } },
    config: { access: 'user', permission: 'personal:settings', licenseFree: true, passwordChangeFree: true },
  },
  put: {
    method: 'PUT',
    url: '/api/yt/user/me/settings',
    schema: {
      tags,
      summary: "Save the caller's console settings (fields left out keep their saved values)",
      body: UserSettingsSchema,
      response: { 200: UserSettingsSchema, 400: ErrorBodySchema, 401: ErrorBodySchema },
    },
    config: { access: 'user', permission: 'personal:settings', licenseFree: true, passwordChangeFree: true, noAudit: true },
  },
});
