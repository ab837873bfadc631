/**
 * THE route table, the one place console routes are declared: menu groups and order, titles, icons,
 * guards, lazy pages and the tabs of the detail pages. The paths come from
 * server/contract/console-paths.ts, which the server shares. The sidebar, breadcrumb, page title
 * and redirects are derived from the table by web/lib/route-model.ts; the meta fields are
 * documented on `RouteEntry` there.
 *
 * Every page is its own lazily loaded chunk. An area this version does not have yet is a
 * placeholder module rendering NotBuiltPage, so building the area swaps that module and leaves
 * this table alone. A feature that adds a tab to a detail page adds its entry to `deviceTabs` or
 * `productTabs` below, with a panel from its own folder; the detail page itself is not edited.
 */
import { createElement, type ComponentType } from 'react';
import { consolePaths } from '../server/contract/console-paths.ts';
import type { AppRoute } from './app-route.ts';
import type { DeviceTabProps } from './features/device/deviceTab.ts';
import type { ProductTabProps } from './features/product/productTab.ts';
import type { PageLoader } from './lib/route-model.ts';
import { lazyPanel, tabRegistry } from './lib/tab-registry.ts';

/**
 * A page module's named export as a lazy() loader (the project has no default exports); `props`
 * are what the table hands the page (a detail page's tabs).
 */
function named<K extends string>(load: () => Promise<Record<K, ComponentType>>, key: K): PageLoader;
function named<K extends string, P extends object>(load: () => Promise<Record<K, ComponentType<P>>>, key: K, props: P): PageLoader;
function named<K extends string, P extends object>(
  load: () => Promise<Record<K, ComponentType<P>>>,
  key: K,
  props?: P,
): PageLoader {
  return () =>
    load().then((m) => {
      const Page = m[key];
      if (!props) return { default: Page as ComponentType };
      return { default: () => createElement(Page, props) };
    });
}

/**
 * The device detail page's tabs. The key is the page's last path segment
 * (`deviceDetailPath(id, key)`), so a tab can be linked to. A tab this version does not have is
 * simply absent. Sort slots: basic info 10, thing-model data 20, alarm 30, command delivery record
 * 40, event management 50, task 60, a gateway's sub-devices 65, device credentials 70, video channel 80.
 */
export const deviceTabs = tabRegistry<DeviceTabProps>([
  {
    key: 'info',
    titleKey: 'device:tabs.info',
    sort: 10,
    panel: lazyPanel(() => import('./features/device/DeviceInfoTab.tsx'), 'DeviceInfoTab'),
  },
  {
    key: 'thingModel',
    titleKey: 'telemetry:tab',
    sort: 20,
    panel: lazyPanel(() => import('./features/telemetry/ThingModelDataTab.tsx'), 'ThingModelDataTab'),
  },
  {
    key: 'attributes',
    titleKey: 'telemetry:shared.tab',
    sort: 25,
    panel: lazyPanel(() => import('./features/telemetry/SharedAttributesTab.tsx'), 'SharedAttributesTab'),
  },
  {
    key: 'command',
    titleKey: 'command:tab',
    sort: 40,
    panel: lazyPanel(() => import('./features/command/CommandTab.tsx'), 'CommandTab'),
  },
  {
    key: 'event',
    titleKey: 'event:tab',
    sort: 50,
    panel: lazyPanel(() => import('./features/event/EventTab.tsx'), 'EventTab'),
  },
  {
    key: 'subDevices',
    titleKey: 'device:tabs.subDevices',
    sort: 65,
    panel: lazyPanel(() => import('./features/device/SubDeviceTab.tsx'), 'SubDeviceTab'),
    shownFor: ({ device }) => device.deviceType === 'GATEWAY',
  },
  {
    key: 'credentials',
    titleKey: 'credentials:tab',
    sort: 70,
    panel: lazyPanel(() => import('./features/device/CredentialsTab.tsx'), 'CredentialsTab'),
  },
]);

/**
 * The product detail page's tabs. The key is the `?tab=` value, so a tab can be linked to. Sort
 * slots: basic info 10, thing model 20, topic list 30, firmware 40.
 */
export const productTabs = tabRegistry<ProductTabProps>([
  {
    key: 'basic',
    titleKey: 'product:tabs.basic',
    sort: 10,
    panel: lazyPanel(() => import('./features/product/ProductBasicTab.tsx'), 'ProductBasicTab'),
  },
  {
    key: 'thingModel',
    titleKey: 'thingModel:tab',
    sort: 20,
    panel: lazyPanel(() => import('./features/thing-model/ThingModelTab.tsx'), 'ThingModelTab'),
  },
  {
    key: 'topic',
    titleKey: 'thingModel:topic.tab',
    sort: 30,
    panel: lazyPanel(() => import('./features/thing-model/ProductTopicTab.tsx'), 'ProductTopicTab'),
  },
]);

export const routes: readonly AppRoute[] = [
  { path: consolePaths.root, name: 'Root', titleKey: 'menu:root', sort: 0, layout: 'main', hideMenu: true, redirect: consolePaths.workbench },

  // Full-page public screens (no token needed).
  {
    path: consolePaths.login, name: 'Login', titleKey: 'menu:login', sort: 0, layout: 'blank', public: true, hideMenu: true,
    page: named(() => import('./features/auth/LoginPage.tsx'), 'LoginPage'),
  },
  {
    path: consolePaths.forgotPassword, name: 'ForgotPassword', titleKey: 'menu:forgotPassword', sort: 0, layout: 'blank', public: true, hideMenu: true,
    page: named(() => import('./features/auth/ForgotPasswordPage.tsx'), 'ForgotPasswordPage'),
  },
  {
    path: consolePaths.guide, name: 'Guide', titleKey: 'menu:guide', sort: 0, layout: 'blank', public: true, hideMenu: true,
    page: named(() => import('./features/guide/GuidePage.tsx'), 'GuidePage'),
  },
  {
    path: consolePaths.expiredLicense, name: 'ExpiredLicense', titleKey: 'menu:expiredLicense', sort: 0, layout: 'blank', public: true, hideMenu: true,
    page: named(() => import('./features/license/ExpiredLicensePage.tsx'), 'ExpiredLicensePage'),
  },

  // Inside the main layout but never in the menu.
  {
    path: consolePaths.exception, name: 'Exception', titleKey: 'menu:exception', sort: 0, layout: 'main', hideMenu: true, hideBreadcrumb: true,
    page: named(() => import('./components/ExceptionPage.tsx'), 'ExceptionPage'),
  },
  {
    path: consolePaths.offlineWord, name: 'OfflineWord', titleKey: 'menu:offlineWord', sort: 0, layout: 'main', hideMenu: true,
    page: named(() => import('./features/help/OfflineWordPage.tsx'), 'OfflineWordPage'),
  },

  // Dashboard (1)
  { path: consolePaths.dashboard, name: 'Dashboard', titleKey: 'menu:dashboard', sort: 1, icon: 'dashboard', layout: 'main' },
  {
    path: consolePaths.workbench, name: 'Workbench', titleKey: 'menu:workbench', group: 'Dashboard', sort: 1, layout: 'main',
    page: named(() => import('./features/workbench/WorkbenchPage.tsx'), 'WorkbenchPage'),
  },

  // Device manage (3)
  { path: consolePaths.deviceManage, name: 'DeviceManage', titleKey: 'menu:deviceManage', sort: 3, icon: 'device', layout: 'main' },
  {
    path: consolePaths.product, name: 'Product', titleKey: 'menu:product', group: 'DeviceManage', sort: 1, layout: 'main',
    page: named(() => import('./features/product/ProductListPage.tsx'), 'ProductListPage'),
  },
  {
    path: consolePaths.productDetail, name: 'ProductDetail', titleKey: 'menu:productDetail', group: 'DeviceManage',
    sort: 2, layout: 'main', hideMenu: true, currentActiveMenu: consolePaths.product,
    page: named(() => import('./features/product/ProductDetailPage.tsx'), 'ProductDetailPage', { tabs: productTabs }),
  },
  {
    path: consolePaths.device, name: 'Device', titleKey: 'menu:device', group: 'DeviceManage', sort: 3, layout: 'main',
    page: named(() => import('./features/device/DeviceListPage.tsx'), 'DeviceListPage'),
  },
  {
    path: consolePaths.deviceDetail, name: 'DeviceDetail', titleKey: 'menu:deviceDetail', group: 'DeviceManage',
    sort: 4, layout: 'main', hideMenu: true, currentActiveMenu: consolePaths.device,
    page: named(() => import('./features/device/DeviceDetailPage.tsx'), 'DeviceDetailPage', { tabs: deviceTabs }),
  },
  {
    path: consolePaths.category, name: 'Category', titleKey: 'menu:category', group: 'DeviceManage', sort: 5, layout: 'main',
    page: named(() => import('./features/category/CategoryListPage.tsx'), 'CategoryListPage'),
  },

  // Soft gateway (4)
  { path: consolePaths.softGateway, name: 'SoftGateway', titleKey: 'menu:softGateway', sort: 4, icon: 'gateway', layout: 'main' },
  {
    path: consolePaths.nodeRed, name: 'NodeRed', titleKey: 'menu:nodeRed', group: 'SoftGateway', sort: 1, layout: 'main',
    page: named(() => import('./features/node-red/NodeRedListPage.tsx'), 'NodeRedListPage'),
  },
  {
    path: consolePaths.nodeRedDetail, name: 'NodeRedDetail', titleKey: 'menu:nodeRedDetail', group: 'SoftGateway', sort: 2,
    layout: 'main', hideMenu: true, currentActiveMenu: consolePaths.nodeRed,
    page: named(() => import('./features/node-red/NodeRedDetailPage.tsx'), 'NodeRedDetailPage'),
  },
  {
    path: consolePaths.protocolModule, name: 'ProtocolModule', titleKey: 'menu:protocolModule', group: 'SoftGateway', sort: 3,
    layout: 'main', page: named(() => import('./features/protocol-module/ProtocolModuleListPage.tsx'), 'ProtocolModuleListPage'),
  },

  // Maintenance (5)
  { path: consolePaths.maintenance, name: 'Maintenance', titleKey: 'menu:maintenance', sort: 5, icon: 'maintenance', layout: 'main' },
  {
    path: consolePaths.alarmRecord, name: 'AlarmRecord', titleKey: 'menu:alarmRecord', group: 'Maintenance', sort: 1, layout: 'main',
    page: named(() => import('./features/alarm/AlarmRecordPage.tsx'), 'AlarmRecordPage'),
  },

  // Rule engine (5, the same sort as Maintenance: table order breaks the tie)
  { path: consolePaths.ruleEngine, name: 'RuleEngine', titleKey: 'menu:ruleEngine', sort: 5, icon: 'rule', layout: 'main' },
  {
    path: consolePaths.sceneLinkage, name: 'SceneLinkage', titleKey: 'menu:sceneLinkage', group: 'RuleEngine', sort: 1, layout: 'main',
    page: named(() => import('./features/scene-linkage/SceneLinkageListPage.tsx'), 'SceneLinkageListPage'),
  },

  // Visualization configuration (6)
  { path: consolePaths.visualization, name: 'Visualization', titleKey: 'menu:visualization', sort: 6, icon: 'visualization', layout: 'main' },
  {
    path: consolePaths.visualizationTemplate, name: 'VisualizationTemplate', titleKey: 'menu:template', group: 'Visualization',
    sort: 1, layout: 'main', page: named(() => import('./features/visualization/TemplatePage.tsx'), 'TemplatePage'),
  },
  {
    path: consolePaths.visualizationSandbox, name: 'VisualizationSandbox', titleKey: 'menu:sandbox', group: 'Visualization',
    sort: 2, layout: 'main', page: named(() => import('./features/visualization/SandboxPage.tsx'), 'SandboxPage'),
  },

  // Video center (7)
  { path: consolePaths.videoCenter, name: 'VideoCenter', titleKey: 'menu:videoCenter', sort: 7, icon: 'video', layout: 'main' },
  {
    path: consolePaths.video, name: 'Video', titleKey: 'menu:video', group: 'VideoCenter', sort: 1, layout: 'main',
    page: named(() => import('./features/video/VideoListPage.tsx'), 'VideoListPage'),
  },

  // System (8)
  { path: consolePaths.system, name: 'System', titleKey: 'menu:system', sort: 8, icon: 'system', layout: 'main' },
  {
    path: consolePaths.organization, name: 'Organization', titleKey: 'menu:organization', group: 'System', sort: 1, layout: 'main',
    page: named(() => import('./features/organization/OrganizationPage.tsx'), 'OrganizationPage'),
  },
  {
    path: consolePaths.edgeState, name: 'EdgeState', titleKey: 'menu:marginalState', group: 'System', sort: 2, layout: 'main',
    page: named(() => import('./features/edge-state/EdgeStatePage.tsx'), 'EdgeStatePage'),
  },
  {
    path: consolePaths.cloudEvent, name: 'CloudEvent', titleKey: 'menu:cloudEvent', group: 'System', sort: 3, layout: 'main',
    page: named(() => import('./features/cloud-event/CloudEventPage.tsx'), 'CloudEventPage'),
  },
  {
    path: consolePaths.networkConfiguration, name: 'NetworkConfiguration', titleKey: 'menu:networkConfiguration', group: 'System',
    sort: 4, layout: 'main', hideMenu: true,
    page: named(() => import('./features/network/NetworkConfigurationPage.tsx'), 'NetworkConfigurationPage'),
  },
  {
    path: consolePaths.systemConfiguration, name: 'SystemConfiguration', titleKey: 'menu:systemConfiguration', group: 'System',
    sort: 5, layout: 'main', page: named(() => import('./features/system-config/SystemConfigurationPage.tsx'), 'SystemConfigurationPage'),
  },

  // Operation management (after System; the user popover's system-config icon opens it in a new tab)
  { path: consolePaths.operationManage, name: 'OperationManage', titleKey: 'menu:operationManage', sort: 9, icon: 'operation', layout: 'main' },
  {
    path: consolePaths.logoManage, name: 'LogoManage', titleKey: 'menu:logoManage', group: 'OperationManage', sort: 1, layout: 'main',
    page: named(() => import('./features/operation/LogoManagePage.tsx'), 'LogoManagePage'),
  },
];

/** Permissions of the signed-in user; no role gates the console yet, so the list is empty. */
export const NO_PERMISSIONS: readonly string[] = [];
