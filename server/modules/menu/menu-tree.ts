/**
 * The spec's menu tree from the console's one menu description (server/contract/console-menu.ts):
 * every entry the console may take from the server (not the `fixed` ones), children under their
 * category, ordered by sort with ties in table order, as the console's own menu orders them.
 */
import type { MenuDefinition, MenuItem } from '../../contract/console-menu.ts';

function item(def: MenuDefinition, children: MenuItem[]): MenuItem {
  return {
    path: def.path,
    name: def.name,
    component: def.component ?? null,
    permission: def.permission ?? null,
    sort: def.sort,
    meta: {
      title: def.titleKey,
      icon: def.icon ?? null,
      menuType: def.menuType,
      hideMenu: def.hideMenu ?? false,
      hideBreadcrumb: def.hideBreadcrumb ?? false,
      hideChildrenInMenu: def.hideChildrenInMenu ?? false,
      isLink: def.isLink ?? false,
      status: def.status === 0 ? 0 : 1,
      currentActiveMenu: def.currentActiveMenu ?? null,
    },
    ...(children.length ? { children } : {}),
  };
}

export function menuTree(menu: readonly MenuDefinition[]): MenuItem[] {
  const served = menu.filter((def) => !def.fixed);
  const level = (group: string | undefined): MenuItem[] =>
    served
      .map((def, index) => ({ def, index }))
      .filter(({ def }) => def.group === group)
      .sort((a, b) => a.def.sort - b.def.sort || a.index - b.index)
      .map(({ def }) => item(def, level(def.name)));
  return level(undefined);
}
