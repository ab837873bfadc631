/**
 * After an administrator's reset the server itself holds the user to the password change
 * (server/plugins/access.ts): every call but own info, permissions, settings, menu, the password
 * change and logout answers 403, and the live websocket is closed, until the password is changed.
 */
import { describe, expect, it } from 'vitest';
import { authRoutes } from '../../server/contract/auth.ts';
import { menuRoutes } from '../../server/contract/console-menu.ts';
import { deviceRoutes } from '../../server/contract/device.ts';
import { WS_POLICY_VIOLATION } from '../../server/contract/realtime.ts';
import { userAdminRoutes } from '../../server/contract/user-admin.ts';
import { userSettingsRoutes } from '../../server/contract/user-settings.ts';
import { userRoutes } from '../../server/contract/user.ts';
import { ContractClient } from '../helpers/devices.ts';
import { LiveClient, makeLiveApp } from '../helpers/live.ts';
import { createRoleUser } from '../helpers/roles.ts';
import { signIn } from '../helpers/session.ts';

const TEMP = 'Temp#Pass2024';
const CHOSEN = 'Mine#Pass2024';

describe('forced password change after an administrator reset', () => {
  it('refuses everything but what the change-password dialog needs until the user chose a password', async () => {
    const t = await makeLiveApp({ listen: true });
    const operator = await createRoleUser(t.api, 'TENANT_ADMIN');
    expect((await operator.api.call(deviceRoutes.list, { query: { page: 1, pageSize: 10 } })).statusCode).toBe(200);
    await t.api.ok(userAdminRoutes.resetPassword, { body: { id: operator.user.id, password: TEMP } });

    const mine = new ContractClient(t.app, (await signIn(t.app, operator.user.username, TEMP)).token);
    const refused = await mine.call(deviceRoutes.list, { query: { page: 1, pageSize: 10 } });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 20, key: 'error.auth.passwordChangeRequired' });
    // Its own profile edit is not among the exceptions: only reading it is.
    expect((await mine.call(userRoutes.updateProfile, { body: { id: operator.user.id, realName: 'x' } })).json()).toMatchObject({ key: 'error.auth.passwordChangeRequired' });
    // What the console's layout loads to show the dialog still answers.
    expect(await mine.ok(userAdminRoutes.myPermissions)).toMatchObject({ mustChangePassword: true });
    for (const route of [userRoutes.me, authRoutes.user, userSettingsRoutes.get, menuRoutes.list]) {
      expect((await mine.call(route)).statusCode).toBe(200);
    }
    const ws = await LiveClient.open(t, { token: mine.token! });
    expect((await ws.closed).code).toBe(WS_POLICY_VIOLATION);

    await mine.ok(userRoutes.resetPassword, { body: { userId: operator.user.id, password: TEMP, resetPassword: CHOSEN } });
    const after = new ContractClient(t.app, (await signIn(t.app, operator.user.username, CHOSEN)).token);
    expect((await after.call(deviceRoutes.list, { query: { page: 1, pageSize: 10 } })).statusCode).toBe(200);
    const live = await LiveClient.open(t, { token: after.token! });
    expect(live.socket.readyState).toBe(live.socket.OPEN);
  });

  it('lets a user who must change their password sign out', async () => {
    const t = await makeLiveApp();
    const operator = await createRoleUser(t.api, 'CUSTOMER_USER');
    await t.api.ok(userAdminRoutes.resetPassword, { body: { id: operator.user.id, password: TEMP } });
    const mine = new ContractClient(t.app, (await signIn(t.app, operator.user.username, TEMP)).token);
    expect((await mine.call(authRoutes.logout)).statusCode).toBe(200);
    expect((await mine.call(userRoutes.me)).statusCode).toBe(401);
  });
});
