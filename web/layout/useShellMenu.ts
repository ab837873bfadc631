/** The shell's menu for the current page: the permitted tree, what is selected and open, and what the side menu shows in each navigation mode. */
import { useMemo } from 'react';
import { activeMenuKey, buildMenu, openMenuKeys, topLevelOf, type MenuNode } from '../lib/route-model.ts';
import type { AppRoute } from '../app-route.ts';
import { useMyPermissions } from '../stores/permissions.ts';
import { useRoutesInForce } from '../stores/menu-routes.ts';
import type { NavMode } from '../stores/settings.ts';

export interface ShellMenu {
  menu: MenuNode<AppRoute>[];
  selectedKey: string | undefined;
  openKeys: string[];
  /** The current page's top-level group. */
  topKey: string | undefined;
  /** The side menu's entries: the whole menu (sidebar), the current group's (mix), none (top). */
  sideNodes: MenuNode<AppRoute>[];
}

export function useShellMenu(entry: AppRoute | undefined, navMode: NavMode): ShellMenu {
  const routes = useRoutesInForce();
  const permissions = useMyPermissions();
  const menu = useMemo(() => buildMenu(routes, permissions ?? []), [routes, permissions]);
  const selectedKey = entry ? activeMenuKey(entry) : undefined;
  const openKeys = entry ? openMenuKeys(routes, entry) : [];
  const top = entry ? topLevelOf(routes, entry) : undefined;
  const mixChildren: MenuNode<AppRoute>[] = menu.find((n) => n.key === top?.path)?.children ?? [];
  const sideNodes = navMode === 'sidebar' ? menu : navMode === 'mix' ? mixChildren : [];
  return { menu, selectedKey, openKeys, topKey: top?.path, sideNodes };
}
