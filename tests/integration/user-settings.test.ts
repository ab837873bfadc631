import { describe, expect, it } from 'vitest';
import { userSettingsRoutes, type UserSettings } from '../../server/contract/user-settings.ts';
import { ContractClient, makeDeviceApp } from '../helpers/devices.ts';
import { expectError } from '../helpers/error-body.ts';
import { createUser, signIn } from '../helpers/session.ts';

describe('GET/PUT /api/yt/user/me/settings', () => {
  it('keeps each user their own settings, across sign-ins', async () => {
    const t = await makeDeviceApp();
    await createUser(t, 'viewer', 'Viewer#2024ok');
    const viewer = new ContractClient(t.app, (await signIn(t.app, 'viewer', 'Viewer#2024ok')).token);
    expect(await t.api.ok(userSettingsRoutes.get)).toEqual({});

    const mine: UserSettings = { navMode: 'top', pageWidth: 'fixed', grayMode: true, showBreadcrumb: false, themeMode: 'dark', language: 'en_US', alarmPopup: {} };
    expect(await t.api.ok(userSettingsRoutes.put, { body: mine })).toEqual(mine);
    await viewer.ok(userSettingsRoutes.put, { body: { navMode: 'mix', colorWeak: true } });

    const again = new ContractClient(t.app, (await signIn(t.app, t.admin.username, t.admin.password)).token);
    expect(await again.ok(userSettingsRoutes.get)).toEqual(mine);
    expect(await viewer.ok(userSettingsRoutes.get)).toEqual({ navMode: 'mix', colorWeak: true });
  });

  it('keeps saved fields a later save leaves out', async () => {
    const t = await makeDeviceApp();
    await t.api.ok(userSettingsRoutes.put, { body: { navMode: 'top', alarmPopup: {} } });
    expect(await t.api.ok(userSettingsRoutes.put, { body: { grayMode: true } })).toEqual({ navMode: 'top', alarmPopup: {}, grayMode: true });
    expect(await t.api.ok(userSettingsRoutes.get)).toEqual({ navMode: 'top', alarmPopup: {}, grayMode: true });
  });

  it.each([
    ['an unknown navigation mode', { navMode: 'left' }],
    ['a colour that is not #rrggbb', { primaryColor: 'red' }],
    ['a language the console lacks', { language: 'fr_FR' }],
  ])('refuses %s', async (_, body) => {
    const t = await makeDeviceApp();
    expectError(await t.api.call(userSettingsRoutes.put, { body }), 400, 31, expect.any(String) as unknown as string);
  });

  it('requires a signed-in caller', async () => {
    const t = await makeDeviceApp();
    expect((await t.anonymous.call(userSettingsRoutes.get)).statusCode).toBe(401);
  });
});
