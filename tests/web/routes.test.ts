import { describe, expect, it } from 'vitest';
import type { AppRoute } from '../../web/app-route.ts';
import { deviceTabs, productTabs, routes } from '../../web/routes.tsx';
import { permissionsOf } from '../../server/contract/permissions.ts';
import {
  activeMenuKey,
  breadcrumbFor,
  buildMenu,
  canAccess,
  findRoute,
  matchPath,
  openMenuKeys,
  pageTitle,
  resolveRoute,
  setupRedirect,
  sortBySort,
  tokenGuardRedirect,
  topLevelOf,
  type AnyRoute,
  type MenuNode,
} from '../../web/lib/route-model.ts';
import { consolePath, consolePaths, deviceDetailPath, productDetailPath } from '../../server/contract/console-paths.ts';

/** The super administrator's: every entry is accessible. */
const ALL_PERMISSIONS = permissionsOf('SYS_ADMIN');

const page = async (): Promise<{ default: () => null }> => ({ default: () => null });

function entry(path: string, name: string, extra: Partial<AnyRoute> = {}): AnyRoute {
  return { path, name, titleKey: `menu:${name}`, sort: 1, layout: 'main', page, ...extra };
}

function titles(nodes: MenuNode[]): unknown[] {
  return nodes.map((n) => (n.children ? { [n.entry.name]: titles(n.children) } : n.entry.name));
}

function byName(name: string): AppRoute {
  const found = routes.find((r) => r.name === name);
  if (!found) throw new Error(`no route ${name}`);
  return found;
}

describe('the console menu', () => {
  const menu = buildMenu(routes, ALL_PERMISSIONS);

  it('lists the groups in their sort order', () => {
    expect(menu.map((n) => n.entry.name)).toEqual([
      'Dashboard',
      'DeviceManage',
      'SoftGateway',
      'Maintenance',
      'RuleEngine',
      'Visualization',
      'VideoCenter',
      'System',
      'OperationManage',
    ]);
  });

  it('shows each group’s entries and leaves the hidden detail pages out', () => {
    expect(titles(menu)).toEqual([
      { Dashboard: ['Workbench'] },
      { DeviceManage: ['Product', 'Device', 'Category'] },
      { SoftGateway: ['NodeRed', 'ProtocolModule'] },
      { Maintenance: ['AlarmRecord'] },
      { RuleEngine: ['SceneLinkage'] },
      { Visualization: ['VisualizationTemplate', 'VisualizationSandbox', 'VisualizationReport'] },
      { VideoCenter: ['Video'] },
      { System: ['Organization', 'EdgeState', 'CloudEvent', 'SystemConfiguration', 'User', 'Notice', 'MyNotice', 'AuditLog'] },
      { OperationManage: ['LogoManage', 'BannerManage', 'GuideManage', 'FirmwareManage', 'LicenseManage'] },
    ]);
  });

  it('gives a customer the reduced menu of their permissions, without empty groups', () => {
    expect(titles(buildMenu(routes, permissionsOf('CUSTOMER_USER')))).toEqual([
      { Dashboard: ['Workbench'] },
      { DeviceManage: ['Product', 'Device'] },
      { Maintenance: ['AlarmRecord'] },
      { RuleEngine: ['SceneLinkage'] },
      { System: ['Organization', 'MyNotice'] },
    ]);
    expect(resolveRoute(routes, '/system/user', permissionsOf('CUSTOMER_USER'))).toMatchObject({ kind: 'forbidden' });
  });

  it('gives every group an icon and keeps public and system pages out of the menu', () => {
    expect(menu.every((n) => n.entry.icon)).toBe(true);
    const keys = JSON.stringify(titles(menu));
    for (const name of ['Login', 'Guide', 'ExpiredLicense', 'ForgotPassword', 'Exception', 'Root', 'NetworkConfiguration']) {
      expect(keys).not.toContain(`"${name}"`);
    }
  });

  it('keeps the network configuration route reachable although it is hidden', () => {
    expect(resolveRoute(routes, '/system/network-configuration', ALL_PERMISSIONS)).toMatchObject({
      kind: 'page',
      entry: { name: 'NetworkConfiguration' },
    });
  });
});

describe('menu derivation rules', () => {
  const table: AnyRoute[] = [
    entry('/b', 'B', { sort: 2, page: undefined }),
    entry('/b/two', 'BTwo', { group: 'B', sort: 2 }),
    entry('/b/one', 'BOne', { group: 'B', sort: 1 }),
    entry('/a', 'A', { sort: 1, page: undefined }),
    entry('/a/x', 'AX', { group: 'A', sort: 1 }),
    entry('/a/y', 'AY', { group: 'A', sort: 1 }),
  ];

  it('orders by sort and keeps table order for equal sorts', () => {
    expect(titles(buildMenu(table, []))).toEqual([{ A: ['AX', 'AY'] }, { B: ['BOne', 'BTwo'] }]);
    expect(sortBySort([entry('/1', 'one', { sort: 5 }), entry('/2', 'two', { sort: 5 }), entry('/3', 'three', { sort: 1 })]).map((e) => e.name))
      .toEqual(['three', 'one', 'two']);
  });

  it('drops disabled entries (status 0) and hidden ones, and a group left empty', () => {
    const withHidden = [
      ...table.map((e) => (e.name === 'AX' ? { ...e, status: 0 } : e.name === 'AY' ? { ...e, hideMenu: true } : e)),
    ];
    expect(titles(buildMenu(withHidden, []))).toEqual([{ B: ['BOne', 'BTwo'] }]);
  });

  it('shows an entry with a permission only to users holding it; one without ignores authorization', () => {
    const guarded = table.map((e) => (e.name === 'BTwo' ? { ...e, permission: 'api:b:two' } : e));
    expect(titles(buildMenu(guarded, []))).toEqual([{ A: ['AX', 'AY'] }, { B: ['BOne'] }]);
    expect(titles(buildMenu(guarded, ['api:b:two']))).toEqual([{ A: ['AX', 'AY'] }, { B: ['BOne', 'BTwo'] }]);
    expect(canAccess(entry('/open', 'Open'), [])).toBe(true);
    expect(canAccess(entry('/closed', 'Closed', { permission: 'x' }), [])).toBe(false);
  });

  it('refuses to open a disabled entry or one the user lacks the permission for', () => {
    const t2 = [...table, entry('/off', 'Off', { status: 0 }), entry('/secret', 'Secret', { permission: 'p' })];
    expect(resolveRoute(t2, '/off', []).kind).toBe('notFound');
    expect(resolveRoute(t2, '/secret', []).kind).toBe('forbidden');
    expect(resolveRoute(t2, '/secret', ['p']).kind).toBe('page');
  });

  it('sends a category to its first visible child by sort', () => {
    expect(resolveRoute(table, '/b', [])).toEqual({ kind: 'redirect', to: '/b/one' });
    const firstHidden = table.map((e) => (e.name === 'BOne' ? { ...e, hideMenu: true } : e));
    expect(resolveRoute(firstHidden, '/b', [])).toEqual({ kind: 'redirect', to: '/b/two' });
  });
});

describe('routing', () => {
  it('redirects the root to the workbench and each category to its first child', () => {
    expect(resolveRoute(routes, '/', ALL_PERMISSIONS)).toEqual({ kind: 'redirect', to: '/dashboard/workbench' });
    expect(resolveRoute(routes, '/dashboard', ALL_PERMISSIONS)).toEqual({ kind: 'redirect', to: '/dashboard/workbench' });
    expect(resolveRoute(routes, '/device-manage', ALL_PERMISSIONS)).toEqual({ kind: 'redirect', to: '/device-manage/product' });
    expect(resolveRoute(routes, '/visualization/configuration', ALL_PERMISSIONS)).toEqual({
      kind: 'redirect',
      to: '/visualization/configuration/template',
    });
    expect(resolveRoute(routes, '/operation-manage', ALL_PERMISSIONS)).toEqual({ kind: 'redirect', to: '/operation-manage/logo' });
  });

  it('reports unknown paths as not found so the shell can show the exception page', () => {
    expect(resolveRoute(routes, '/no/such/page', ALL_PERMISSIONS)).toEqual({ kind: 'notFound' });
    expect(resolveRoute(routes, '/device-manage/product/1/2/3', ALL_PERMISSIONS)).toEqual({ kind: 'notFound' });
  });

  it('matches detail routes with their required and optional parameters', () => {
    expect(findRoute(routes, '/device-manage/product/42')).toMatchObject({ entry: { name: 'ProductDetail' }, params: { id: '42' } });
    expect(findRoute(routes, '/device-manage/product/42/true')?.params).toEqual({ id: '42', isShowCreate: 'true' });
    expect(findRoute(routes, '/device-manage/device/7/alarm')?.params).toEqual({ id: '7', alarm: 'alarm' });
    expect(findRoute(routes, '/soft-gateway/node-red/n1')?.entry.name).toBe('NodeRedDetail');
    expect(findRoute(routes, '/device-manage/product')?.entry.name).toBe('Product');
    expect(matchPath('/a/:id', '/a/b%20c/')).toEqual({ id: 'b c' });
    expect(matchPath('/a/:id', '/a')).toBeNull();
  });

  it('routes the console paths other code links to', () => {
    for (const path of [consolePaths.login, consolePaths.exception, consolePaths.guide, consolePaths.offlineWord, consolePaths.expiredLicense, consolePaths.forgotPassword, consolePaths.workbench]) {
      expect(resolveRoute(routes, path, ALL_PERMISSIONS).kind).toBe('page');
    }
    for (const path of [consolePaths.root, consolePaths.dashboard, consolePaths.operationManage]) {
      expect(resolveRoute(routes, path, ALL_PERMISSIONS).kind).toBe('redirect');
    }
  });

  it('lets the public full-page screens through without a token and sends the rest to login with a way back', () => {
    for (const name of ['Login', 'ForgotPassword', 'Guide', 'ExpiredLicense']) {
      expect(byName(name)).toMatchObject({ public: true, layout: 'blank' });
      expect(tokenGuardRedirect(byName(name), false, consolePaths.login, consolePaths.login)).toBeNull();
    }
    expect(tokenGuardRedirect(byName('Device'), false, consolePaths.login, '/device-manage/device?page=2')).toBe(
      '/login?redirect=%2Fdevice-manage%2Fdevice%3Fpage%3D2',
    );
    expect(tokenGuardRedirect(byName('Device'), true, consolePaths.login, '/device-manage/device')).toBeNull();
    expect(byName('Exception').layout).toBe('main');
  });
});

describe('selection and breadcrumb', () => {
  it('highlights Product while a product detail page is open, and opens its group', () => {
    const detail = byName('ProductDetail');
    expect(activeMenuKey(detail)).toBe('/device-manage/product');
    expect(openMenuKeys(routes, detail)).toEqual(['/device-manage']);
    expect(activeMenuKey(byName('DeviceDetail'))).toBe('/device-manage/device');
    expect(activeMenuKey(byName('NodeRedDetail'))).toBe('/soft-gateway/node-red');
    expect(topLevelOf(routes, detail).name).toBe('DeviceManage');
  });

  it('derives the breadcrumb from groups, the highlighted entry and the page', () => {
    expect(breadcrumbFor(routes, byName('Device'))).toEqual([
      { path: '/device-manage', titleKey: 'menu:deviceManage' },
      { path: '/device-manage/device', titleKey: 'menu:device' },
    ]);
    expect(breadcrumbFor(routes, byName('ProductDetail')).map((c) => c.titleKey)).toEqual([
      'menu:deviceManage',
      'menu:product',
      'menu:productDetail',
    ]);
  });

  it('leaves entries flagged hideBreadcrumb out of the breadcrumb', () => {
    const table = [entry('/g', 'G', { page: undefined, hideBreadcrumb: true }), entry('/g/p', 'P', { group: 'G' })];
    expect(breadcrumbFor(table, table[1] as AnyRoute)).toEqual([{ path: '/g/p', titleKey: 'menu:P' }]);
  });
});

describe('page title', () => {
  it('is "<route title> - <platform name>", falling back to the app title', () => {
    expect(pageTitle('Device', 'Factory Edge', 'Edge Console')).toBe('Device - Factory Edge');
    expect(pageTitle('Device', undefined, 'Edge Console')).toBe('Device - Edge Console');
    expect(pageTitle(undefined, 'Factory Edge', 'Edge Console')).toBe('Edge Console');
  });
});

describe('start-up setup check', () => {
  const ok = { licensed: true, licenseExpired: false, adminCreated: true };

  it('sends an unlicensed gateway or one without an administrator to the wizard', () => {
    expect(setupRedirect({ ...ok, licensed: false }, '/login', consolePaths.guide, consolePaths.expiredLicense)).toBe('/guide');
    expect(setupRedirect({ ...ok, adminCreated: false }, '/dashboard/workbench', consolePaths.guide, consolePaths.expiredLicense)).toBe('/guide');
  });

  it('sends an expired licence without an administrator to the wizard, where one can be created', () => {
    expect(
      setupRedirect({ ...ok, licenseExpired: true, adminCreated: false }, '/login', consolePaths.guide, consolePaths.expiredLicense),
    ).toBe('/guide');
  });

  it('sends an expired licence to the upload page', () => {
    expect(setupRedirect({ ...ok, licenseExpired: true }, '/login', consolePaths.guide, consolePaths.expiredLicense)).toBe(
      '/expired-upload-license',
    );
  });

  it('does nothing when activated or when already on the target page', () => {
    expect(setupRedirect(ok, '/login', consolePaths.guide, consolePaths.expiredLicense)).toBeNull();
    expect(setupRedirect({ ...ok, licensed: false }, '/guide', consolePaths.guide, consolePaths.expiredLicense)).toBeNull();
    expect(setupRedirect({ ...ok, licenseExpired: true }, '/expired-upload-license/', consolePaths.guide, consolePaths.expiredLicense)).toBeNull();
  });
});

describe('console paths', () => {
  const camel = (name: string): string => name.charAt(0).toLowerCase() + name.slice(1);

  it('gives every route its path from the console paths, under the camelCase of its name', () => {
    for (const route of routes) {
      expect(consolePaths[camel(route.name) as keyof typeof consolePaths], route.name).toBe(route.path);
    }
    expect(Object.keys(consolePaths).sort()).toEqual(routes.map((r) => camel(r.name)).sort());
  });

  it('fills in parameters, encoded, and drops an optional one left out', () => {
    expect(deviceDetailPath('a b')).toBe('/device-manage/device/a%20b');
    expect(deviceDetailPath('7', 'credentials')).toBe('/device-manage/device/7/credentials');
    expect(productDetailPath('42')).toBe('/device-manage/product/42');
    expect(productDetailPath('42', true)).toBe('/device-manage/product/42/1');
    expect(consolePath(consolePaths.nodeRedDetail, { id: 'n/1' })).toBe('/soft-gateway/node-red/n%2F1');
    expect(consolePath(consolePaths.login, {})).toBe('/login');
    expect(consolePath(consolePaths.root, {})).toBe('/');
  });
});

describe('detail page tabs', () => {
  it('opens every device tab by its path segment on the device detail page', () => {
    expect(deviceTabs.all().map((t) => t.key)).toEqual(['info', 'thingModel', 'attributes', 'tcp', 'alarm', 'command', 'event', 'task', 'subDevices', 'credentials', 'video']);
    for (const tab of deviceTabs.all()) {
      expect(resolveRoute(routes, deviceDetailPath('7', tab.key), ALL_PERMISSIONS)).toMatchObject({
        kind: 'page',
        entry: { name: 'DeviceDetail' },
        params: { id: '7', alarm: tab.key },
      });
    }
  });

  it('lists the product tabs in their sort order', () => {
    expect(productTabs.all().map((t) => t.key)).toEqual(['basic', 'thingModel', 'modbus', 'topic']);
    expect(productTabs.namespaces().sort()).toEqual(['modbus', 'product', 'thingModel']);
  });
});
