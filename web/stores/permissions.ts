/**
 * The signed-in user's role and permission strings (`GET /api/yt/user/me/permissions`), kept under
 * PERMISSIONS in browser storage (spec section 6) and cleared with the session. Loaded at sign-in
 * and whenever the server answers 403 code 20 (a role may have changed meanwhile); the menu, route
 * guard and `<Permitted>` buttons read it.
 */
import { useEffect } from 'react';
import { create } from 'zustand';
import { userAdminRoutes, type MyPermissions } from '../../server/contract/user-admin.ts';
import { api, onForbidden } from '../lib/api-client.ts';
import { StorageKey, storage } from '../lib/storage.ts';
import { getSession, useSession } from './session.ts';

interface PermissionState {
  mine: MyPermissions | null;
  /**
   * The access token a load failed with (a network failure): with that token the shell goes on
   * with no permissions rather than wait forever; a new sign-in loads again.
   */
  failedFor: string | null;
}

export const usePermissionStore = create<PermissionState>(() => ({ mine: storage.get<MyPermissions>(StorageKey.PERMISSIONS), failedFor: null }));

useSession.subscribe((state, previous) => {
  if (previous.token && !state.token) usePermissionStore.setState({ mine: null, failedFor: null });
});

let loading: Promise<MyPermissions | null> | null = null;

/** Fetches and stores the user's permissions; null when there is no session or the call failed. */
export function loadPermissions(): Promise<MyPermissions | null> {
  if (!getSession().token) return Promise.resolve(null);
  loading ??= api(userAdminRoutes.myPermissions, { silent: true })
    .then((mine) => {
      storage.set(StorageKey.PERMISSIONS, mine, { persistent: getSession().remember });
      usePermissionStore.setState({ mine, failedFor: null });
      return mine;
    })
    .catch(() => {
      // After a refused session the token is gone already: nothing to remember then.
      usePermissionStore.setState({ failedFor: getSession().token });
      return null;
    })
    .finally(() => (loading = null));
  return loading;
}

onForbidden(() => void loadPermissions());

/**
 * The permission strings in force: [] without a session, null while a signed-in user's list is
 * still loading (the shell waits rather than calling a permitted page forbidden). `needed` false
 * (a public page) loads nothing.
 */
export function useMyPermissions(needed = true): readonly string[] | null {
  const token = useSession((s) => s.token);
  const mine = usePermissionStore((s) => s.mine);
  const failed = usePermissionStore((s) => s.failedFor !== null && s.failedFor === token);
  const waiting = needed && Boolean(token) && mine === null && !failed;
  useEffect(() => {
    if (waiting) void loadPermissions();
  }, [waiting]);
  if (!token) return [];
  return mine?.permissions ?? (failed ? [] : null);
}

/** The same check outside components (tab registries' `shownFor`), from the stored list. */
export function holdsPermission(permission: string): boolean {
  return usePermissionStore.getState().mine?.permissions.includes(permission) ?? false;
}

/** Whether the signed-in user holds `permission` (false while the list loads). */
export function usePermission(permission: string): boolean {
  return useMyPermissions()?.includes(permission) ?? false;
}

/** Set by an administrator's password reset: the console asks for a new password before anything else. */
export function useMustChangePassword(): boolean {
  return usePermissionStore((s) => s.mine?.mustChangePassword ?? false);
}
