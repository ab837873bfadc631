/**
 * THE route table (CONVENTIONS.md, Web): paths, menu groups and order, titles, icons, guards and
 * lazy pages. The sidebar, breadcrumb, page title and redirects are derived from it by
 * web/lib/route-model.ts; the meta fields are documented on `RouteEntry` there.
 *
 * Groups and order follow spec section 2. Every page is its own lazily loaded chunk; areas a
 * later issue builds are placeholder modules rendering NotBuiltPage, so that issue swaps the page
 * module and leaves this table alone.
 */
import type { ComponentType } from 'react';
import type { MenuIconName } from './layout/menu-icons.tsx';
import type { PageLoader, RouteEntry } from './lib/route-model.ts';
import type menuTitles from '../locales/zh_CN/menu.json';
import { paths } from './lib/paths.ts';

export type MenuTitleKey = `menu:${keyof typeof menuTitles}`;
export type AppRoute = RouteEntry<MenuIconName, MenuTitleKey>;

/** A page module's named export as a lazy() loader (the project has no default exports). */
function named<K extends string>(load: () => Promise<Record<K, ComponentType>>, key: K): PageLoader {
  return () => load().then((m) => ({ default: m[key] }));
}

export const routes: readonly AppRoute[] = [
  { path: paths.root, name: 'Root', titleKey: 'menu:root', sort: 0, layout: 'main', hideMenu: true, redirect: paths.workbench },

  // Full-page public screens (no token needed).
  {
    path: paths.login, name: 'Login', titleKey: 'menu:login', sort: 0, layout: 'blank', public: true, hideMenu: true,
    page: named(() => import('./features/auth/LoginPage.tsx'), 'LoginPage'),
  },
  {
    path: paths.forgotPassword, name: 'ForgotPassword', titleKey: 'menu:forgotPassword', sort: 0, layout: 'blank', public: true, hideMenu: true,
    page: named(() => import('./features/auth/ForgotPasswordPage.tsx'), 'ForgotPasswordPage'),
  },
  {
    path: paths.guide, name: 'Guide', titleKey: 'menu:guide', sort: 0, layout: 'blank', public: true, hideMenu: true,
    page: named(() => import('./features/guide/GuidePage.tsx'), 'GuidePage'),
  },
  {
    path: paths.expiredLicense, name: 'ExpiredLicense', titleKey: 'menu:expiredLicense', sort: 0, layout: 'blank', public: true, hideMenu: true,
    page: named(() => import('./features/license/ExpiredLicensePage.tsx'), 'ExpiredLicensePage'),
  },

  // Inside the main layout but never in the menu.
  {
    path: paths.exception, name: 'Exception', titleKey: 'menu:exception', sort: 0, layout: 'main', hideMenu: true, hideBreadcrumb: true,
    page: named(() => import('./components/ExceptionPage.tsx'), 'ExceptionPage'),
  },
  {
    path: paths.offlineWord, name: 'OfflineWord', titleKey: 'menu:offlineWord', sort: 0, layout: 'main', hideMenu: true,
    page: named(() => import('./features/help/OfflineWordPage.tsx'), 'OfflineWordPage'),
  },

  // Dashboard (1)
  { path: paths.dashboard, name: 'Dashboard', titleKey: 'menu:dashboard', sort: 1, icon: 'dashboard', layout: 'main' },
  {
    path: paths.workbench, name: 'Workbench', titleKey: 'menu:workbench', group: 'Dashboard', sort: 1, layout: 'main',
    page: named(() => import('./features/dashboard/WorkbenchPage.tsx'), 'WorkbenchPage'),
  },

  // Device manage (3)
  { path: '/device-manage', name: 'DeviceManage', titleKey: 'menu:deviceManage', sort: 3, icon: 'device', layout: 'main' },
  {
    path: '/device-manage/product', name: 'Product', titleKey: 'menu:product', group: 'DeviceManage', sort: 1, layout: 'main',
    page: named(() => import('./features/product/ProductListPage.tsx'), 'ProductListPage'),
  },
  {
    path: '/device-manage/product/:id/:isShowCreate?', name: 'ProductDetail', titleKey: 'menu:productDetail', group: 'DeviceManage',
    sort: 2, layout: 'main', hideMenu: true, currentActiveMenu: '/device-manage/product',
    page: named(() => import('./features/product/ProductDetailPage.tsx'), 'ProductDetailPage'),
  },
  {
    path: '/device-manage/device', name: 'Device', titleKey: 'menu:device', group: 'DeviceManage', sort: 3, layout: 'main',
    page: named(() => import('./features/device/DeviceListPage.tsx'), 'DeviceListPage'),
  },
  {
    path: '/device-manage/device/:id/:alarm?', name: 'DeviceDetail', titleKey: 'menu:deviceDetail', group: 'DeviceManage',
    sort: 4, layout: 'main', hideMenu: true, currentActiveMenu: '/device-manage/device',
    page: named(() => import('./features/device/DeviceDetailPage.tsx'), 'DeviceDetailPage'),
  },
  {
    path: '/device-manage/category', name: 'Category', titleKey: 'menu:category', group: 'DeviceManage', sort: 5, layout: 'main',
    page: named(() => import('./features/category/CategoryListPage.tsx'), 'CategoryListPage'),
  },

  // Soft gateway (4)
  { path: '/soft-gateway', name: 'SoftGateway', titleKey: 'menu:softGateway', sort: 4, icon: 'gateway', layout: 'main' },
  {
    path: '/soft-gateway/node-red', name: 'NodeRed', titleKey: 'menu:nodeRed', group: 'SoftGateway', sort: 1, layout: 'main',
    page: named(() => import('./features/node-red/NodeRedListPage.tsx'), 'NodeRedListPage'),
  },
  {
    path: '/soft-gateway/node-red/:id', name: 'NodeRedDetail', titleKey: 'menu:nodeRedDetail', group: 'SoftGateway', sort: 2,
    layout: 'main', hideMenu: true, currentActiveMenu: '/soft-gateway/node-red',
    page: named(() => import('./features/node-red/NodeRedDetailPage.tsx'), 'NodeRedDetailPage'),
  },
  {
    path: '/soft-gateway/protocol-module', name: 'ProtocolModule', titleKey: 'menu:protocolModule', group: 'SoftGateway', sort: 3,
    layout: 'main', page: named(() => import('./features/protocol-module/ProtocolModuleListPage.tsx'), 'ProtocolModuleListPage'),
  },

  // Maintenance (5)
  { path: '/maintenance', name: 'Maintenance', titleKey: 'menu:maintenance', sort: 5, icon: 'maintenance', layout: 'main' },
  {
    path: '/maintenance/alarm-record', name: 'AlarmRecord', titleKey: 'menu:alarmRecord', group: 'Maintenance', sort: 1, layout: 'main',
    page: named(() => import('./features/alarm/AlarmRecordPage.tsx'), 'AlarmRecordPage'),
  },

  // Rule engine (5; the spec gives it the same sort as Maintenance, table order breaks the tie)
  { path: '/rule-engine', name: 'RuleEngine', titleKey: 'menu:ruleEngine', sort: 5, icon: 'rule', layout: 'main' },
  {
    path: '/rule-engine/scene-linkage', name: 'SceneLinkage', titleKey: 'menu:sceneLinkage', group: 'RuleEngine', sort: 1, layout: 'main',
    page: named(() => import('./features/scene-linkage/SceneLinkageListPage.tsx'), 'SceneLinkageListPage'),
  },

  // Visualization configuration (6)
  { path: '/visualization/configuration', name: 'Visualization', titleKey: 'menu:visualization', sort: 6, icon: 'visualization', layout: 'main' },
  {
    path: '/visualization/configuration/template', name: 'VisualizationTemplate', titleKey: 'menu:template', group: 'Visualization',
    sort: 1, layout: 'main', page: named(() => import('./features/visualization/TemplatePage.tsx'), 'TemplatePage'),
  },
  {
    path: '/visualization/configuration/sandbox', name: 'VisualizationSandbox', titleKey: 'menu:sandbox', group: 'Visualization',
    sort: 2, layout: 'main', page: named(() => import('./features/visualization/SandboxPage.tsx'), 'SandboxPage'),
  },

  // Video center (7)
  { path: '/video-center', name: 'VideoCenter', titleKey: 'menu:videoCenter', sort: 7, icon: 'video', layout: 'main' },
  {
    path: '/video-center/video', name: 'Video', titleKey: 'menu:video', group: 'VideoCenter', sort: 1, layout: 'main',
    page: named(() => import('./features/video/VideoListPage.tsx'), 'VideoListPage'),
  },

  // System (8)
  { path: '/system', name: 'System', titleKey: 'menu:system', sort: 8, icon: 'system', layout: 'main' },
  {
    path: '/system/organization', name: 'Organization', titleKey: 'menu:organization', group: 'System', sort: 1, layout: 'main',
    page: named(() => import('./features/organization/OrganizationPage.tsx'), 'OrganizationPage'),
  },
  {
    path: '/system/marginal-state', name: 'MarginalState', titleKey: 'menu:marginalState', group: 'System', sort: 2, layout: 'main',
    page: named(() => import('./features/edge-state/MarginalStatePage.tsx'), 'MarginalStatePage'),
  },
  {
    path: '/system/cloud-event', name: 'CloudEvent', titleKey: 'menu:cloudEvent', group: 'System', sort: 3, layout: 'main',
    page: named(() => import('./features/cloud-event/CloudEventPage.tsx'), 'CloudEventPage'),
  },
  {
    path: '/system/network-configuration', name: 'NetworkConfiguration', titleKey: 'menu:networkConfiguration', group: 'System',
    sort: 4, layout: 'main', hideMenu: true,
    page: named(() => import('./features/network/NetworkConfigurationPage.tsx'), 'NetworkConfigurationPage'),
  },
  {
    path: '/system/system-configuration', name: 'SystemConfiguration', titleKey: 'menu:systemConfiguration', group: 'System',
    sort: 5, layout: 'main', page: named(() => import('./features/system-config/SystemConfigurationPage.tsx'), 'SystemConfigurationPage'),
  },

  // Operation management (after System; the user popover's system-config icon opens it in a new tab)
  { path: paths.operationManage, name: 'OperationManage', titleKey: 'menu:operationManage', sort: 9, icon: 'operation', layout: 'main' },
  {
    path: '/operation-manage/logo', name: 'LogoManage', titleKey: 'menu:logoManage', group: 'OperationManage', sort: 1, layout: 'main',
    page: named(() => import('./features/operation/LogoManagePage.tsx'), 'LogoManagePage'),
  },
];

/** Permissions of the signed-in user; no role gates the console yet (spec section 6). */
export const NO_PERMISSIONS: readonly string[] = [];
