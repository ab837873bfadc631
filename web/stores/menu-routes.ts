/**
 * The route table the console runs on: its own (front-end menu mode, the default) or, in the
 * back-end menu mode (the settings drawer's switch), the server's menu (`GET /api/yt/getMenuList`)
 * with the console's fixed entries (sign-in, activation, exception). The server's menu is loaded
 * once per session when a token exists, kept under MENU_LIST (cleared with the session), and
 * resolved to pages by component name (web/lib/menu-pages.ts).
 */
import { useEffect, useMemo } from 'react';
import { create } from 'zustand';
import { menuRoutes, type MenuItem } from '../../server/contract/console-menu.ts';
import type { AppRoute } from '../app-route.ts';
import { api } from '../lib/api-client.ts';
import { routesFromMenu } from '../lib/menu-pages.ts';
import { StorageKey, storage } from '../lib/storage.ts';
import { pages, routes } from '../routes.tsx';
import { useSession } from './session.ts';
import { useSettings } from './settings.ts';

interface MenuListState {
  items: MenuItem[] | null;
}

export const useMenuList = create<MenuListState>(() => ({ items: storage.get<MenuItem[]>(StorageKey.MENU_LIST) }));

// The session's reset removes the stored menu; the copy in memory goes with it.
useSession.subscribe((state, previous) => {
  if (previous.token && !state.token) useMenuList.setState({ items: null });
});

let loading: Promise<void> | null = null;

function loadMenuList(): Promise<void> {
  loading ??= api(menuRoutes.list)
    .then((items) => {
      storage.set(StorageKey.MENU_LIST, items, { persistent: useSession.getState().remember });
      useMenuList.setState({ items });
    })
    // A menu that cannot be had leaves the fixed entries only: every other path is not found.
    .catch(() => useMenuList.setState({ items: [] }))
    .finally(() => (loading = null));
  return loading;
}

const fixedRoutes = routes.filter((r) => r.fixed);

/** The server's menu as route entries (titles and icons are the description's own names). */
export function backEndRoutes(items: readonly MenuItem[]): readonly AppRoute[] {
  return [...fixedRoutes, ...(routesFromMenu(items, pages, pages.ExceptionPage) as AppRoute[])];
}

/** The routes in force inside the main layout, which renders once they are known. */
export function useRoutesInForce(): readonly AppRoute[] {
  return useConsoleRoutes() ?? routes;
}

/** The routes in force; null while the back-end menu is still loading (the shell shows its spinner). */
export function useConsoleRoutes(): readonly AppRoute[] | null {
  const mode = useSettings((s) => s.menuMode);
  const token = useSession((s) => s.token);
  const items = useMenuList((s) => s.items);
  const waiting = mode === 'back' && Boolean(token) && items === null;
  useEffect(() => {
    if (waiting) void loadMenuList();
  }, [waiting]);
  return useMemo(() => {
    if (mode !== 'back' || !token) return routes;
    return items === null ? null : backEndRoutes(items);
  }, [mode, token, items]);
}
