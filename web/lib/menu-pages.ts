/**
 * The back-end menu mode's route entries: the server's menu tree (`GET /api/yt/getMenuList`,
 * server/contract/console-menu.ts) turned into rows of the route table, each menu entry resolved
 * to its page by component name. Pure, so tests run it without a browser.
 */
import { consoleMenu, type MenuItem } from '../../server/contract/console-menu.ts';
import type { AnyRoute, PageLoader, RouteLayout } from './route-model.ts';

/**
 * The shell a server menu entry renders in: the console's own description decides (operation
 * management has its own), since the server's menu meta has no layout; unknown pages get the main one.
 */
function layoutOf(component: string | null | undefined): RouteLayout {
  const own = consoleMenu.find((def) => 'component' in def && def.component === component);
  return own?.layout === 'operation' ? 'operation' : 'main';
}

/** `features/device/DeviceListPage.tsx` → `devicelistpage`: what a component name is compared by. */
function baseName(component: string): string {
  const last = component.replace(/\\/g, '/').split('/').filter(Boolean).pop() ?? '';
  return last.replace(/\.(tsx|ts|jsx|js|vue)$/i, '').toLowerCase();
}

/**
 * The page a component name designates: the page of that exact name, else the one page whose
 * name equals its base name (no folders, no extension, any case). Null when none does or several
 * do: the caller shows the not-found page then.
 */
export function pageFor(pages: Readonly<Record<string, PageLoader>>, component: string | null | undefined): PageLoader | null {
  if (!component) return null;
  if (Object.hasOwn(pages, component)) return pages[component] ?? null;
  const wanted = baseName(component);
  if (!wanted) return null;
  const matches = Object.keys(pages).filter((name) => name.toLowerCase() === wanted);
  return matches.length === 1 ? (pages[matches[0]!] ?? null) : null;
}

/**
 * Route entries from the server's menu tree, children pointing at their category through `group`.
 * A category gets no page (it forwards to its first child); a menu entry whose component is
 * unknown or ambiguous gets `notFound`; buttons are actions inside pages, not routes.
 */
export function routesFromMenu(
  items: readonly MenuItem[],
  pages: Readonly<Record<string, PageLoader>>,
  notFound: PageLoader,
  group?: string,
): AnyRoute[] {
  return items.flatMap((item): AnyRoute[] => {
    const { meta } = item;
    if (meta.menuType === 'button') return [];
    const entry: AnyRoute = {
      path: item.path,
      name: item.name,
      titleKey: meta.title,
      sort: item.sort,
      layout: layoutOf(item.component),
      menuType: meta.menuType,
      status: meta.status,
      ...(group !== undefined ? { group } : {}),
      ...(meta.icon ? { icon: meta.icon } : {}),
      ...(item.permission ? { permission: item.permission } : {}),
      ...(item.component ? { component: item.component } : {}),
      ...(meta.hideMenu ? { hideMenu: true } : {}),
      ...(meta.hideBreadcrumb ? { hideBreadcrumb: true } : {}),
      ...(meta.hideChildrenInMenu ? { hideChildrenInMenu: true } : {}),
      ...(meta.isLink ? { isLink: true } : {}),
      ...(meta.currentActiveMenu ? { currentActiveMenu: meta.currentActiveMenu } : {}),
      ...(meta.menuType === 'menu' ? { page: pageFor(pages, item.component) ?? notFound } : {}),
    };
    return [entry, ...routesFromMenu(item.children ?? [], pages, notFound, item.name)];
  });
}
