import { describe, expect, it } from 'vitest';
import { consoleMenu, type MenuItem } from '../../server/contract/console-menu.ts';
import { menuTree } from '../../server/modules/menu/menu-tree.ts';
import { pageFor, routesFromMenu } from '../../web/lib/menu-pages.ts';
import { buildMenu, resolveRoute, type AnyRoute, type MenuNode, type PageLoader } from '../../web/lib/route-model.ts';
import { pages, routes } from '../../web/routes.tsx';
import { permissionsOf } from '../../server/contract/permissions.ts';

/** The super administrator's: every entry is accessible. */
const ALL_PERMISSIONS = permissionsOf('SYS_ADMIN');

const loader = (): PageLoader => async () => ({ default: () => null });
const notFound = loader();

function names(nodes: MenuNode[]): unknown[] {
  return nodes.map((n) => (n.children ? { [n.entry.name]: names(n.children) } : n.entry.name));
}

function menuEntry(name: string, component: string | null, extra: Partial<MenuItem['meta']> = {}): MenuItem {
  return {
    path: `/x/${name.toLowerCase()}`,
    name,
    component,
    permission: null,
    sort: 1,
    meta: {
      title: `menu:${name}`,
      icon: null,
      menuType: 'menu',
      hideMenu: false,
      hideBreadcrumb: false,
      hideChildrenInMenu: false,
      isLink: false,
      status: 1,
      currentActiveMenu: null,
      ...extra,
    },
  };
}

describe('route entries carry the spec’s menu fields', () => {
  it('marks categories and pages with their menuType and each page with its component name', () => {
    const byName = (name: string): AnyRoute | undefined => routes.find((r) => r.name === name);
    expect(byName('DeviceManage')).toMatchObject({ menuType: 'category' });
    expect(byName('DeviceManage')?.component).toBeUndefined();
    expect(byName('Device')).toMatchObject({ menuType: 'menu', component: 'DeviceListPage' });
    for (const route of routes) if (route.component) expect(route.page).toBe(pages[route.component as keyof typeof pages]);
  });

  it('shows an entry flagged hideChildrenInMenu as one item without its children', () => {
    const page = loader();
    const table: AnyRoute[] = [
      { path: '/g', name: 'G', titleKey: 'menu:g', sort: 1, layout: 'main', hideChildrenInMenu: true },
      { path: '/g/a', name: 'A', titleKey: 'menu:a', sort: 1, layout: 'main', group: 'G', page },
    ];
    expect(buildMenu(table, [])).toEqual([{ key: '/g', entry: table[0] }]);
  });
});

describe('a menu entry resolves to its page by component name', () => {
  const registry = { DeviceListPage: loader(), ProductListPage: loader() };

  it('finds the page of that exact name, or of its base name in any case, folders and extension left out', () => {
    expect(pageFor(registry, 'DeviceListPage')).toBe(registry.DeviceListPage);
    expect(pageFor(registry, '/device-manage/device/DeviceListPage.tsx')).toBe(registry.DeviceListPage);
    expect(pageFor(registry, 'productlistpage')).toBe(registry.ProductListPage);
  });

  it('finds no page for an unknown or an ambiguous name', () => {
    expect(pageFor(registry, 'NoSuchPage')).toBeNull();
    expect(pageFor(registry, '')).toBeNull();
    expect(pageFor({ Device: loader(), DEVICE: loader() }, 'device')).toBeNull();
  });

  it('gives a server menu entry with an unknown or ambiguous component the not-found page', () => {
    const entries = routesFromMenu(
      [menuEntry('Known', 'DeviceListPage'), menuEntry('Unknown', 'Missing/Page'), menuEntry('Button', null, { menuType: 'button' })],
      registry,
      notFound,
    );
    expect(entries.map((e) => e.name)).toEqual(['Known', 'Unknown']);
    expect(entries[0]!.page).toBe(registry.DeviceListPage);
    expect(entries[1]!.page).toBe(notFound);
  });
});

describe('the back-end menu mode', () => {
  const fromServer = routesFromMenu(menuTree(consoleMenu), pages, notFound);

  it('builds from the server’s menu the same menu as the console’s own route table', () => {
    const fixed = routes.filter((r) => r.fixed);
    expect(names(buildMenu([...fixed, ...fromServer], ALL_PERMISSIONS))).toEqual(names(buildMenu(routes, ALL_PERMISSIONS)));
  });

  it('opens each page of the server’s menu with the page the route table has for it', () => {
    const resolved = resolveRoute(fromServer, '/device-manage/device', ALL_PERMISSIONS);
    expect(resolved).toMatchObject({ kind: 'page', entry: { name: 'Device' } });
    expect(resolved.kind === 'page' && resolved.entry.page).toBe(pages.DeviceListPage);
    expect(resolveRoute(fromServer, '/device-manage', ALL_PERMISSIONS)).toEqual({ kind: 'redirect', to: '/device-manage/product' });
  });
});
