/**
 * THE route table: the console's menu description (paths, menu groups and order, titles, icons,
 * guards; server/contract/console-menu.ts, which the server's menu call shares) joined with the
 * lazy pages, and the tabs of the detail pages. The sidebar, breadcrumb, page title
 * and redirects are derived from the table by web/lib/route-model.ts; the meta fields are
 * documented on `RouteEntry` there.
 *
 * Every page is its own lazily loaded chunk. An area this version does not have yet is a
 * placeholder module rendering NotBuiltPage, so building the area swaps that module and leaves
 * this table alone. A feature that adds a tab to a detail page adds its entry to `deviceTabs` or
 * `productTabs` below, with a panel from its own folder; the detail page itself is not edited.
 */
import { createElement, type ComponentType } from 'react';
import { consoleMenu, type ConsoleComponentName } from '../server/contract/console-menu.ts';
import type { AppRoute } from './app-route.ts';
import type { DeviceTabProps } from './features/device/deviceTab.ts';
import type { ProductTabProps } from './features/product/productTab.ts';
import type { PageLoader } from './lib/route-model.ts';
import { lazyPanel, tabRegistry } from './lib/tab-registry.ts';
import { holdsPermission } from './stores/permissions.ts';

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
 * simply absent. Sort slots: basic info 10, thing-model data 20, TCP link 27, alarm 30, command delivery
 * record 40, event management 50, task 60, a gateway's sub-devices 65, device credentials 70, video
 * channel 80.
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
    shownFor: () => holdsPermission('device:attributes'),
  },
  {
    key: 'alarm',
    titleKey: 'alarm:tab',
    sort: 30,
    panel: lazyPanel(() => import('./features/alarm/AlarmTab.tsx'), 'AlarmTab'),
  },
  {
    key: 'tcp',
    titleKey: 'modbus:tab',
    sort: 27,
    panel: lazyPanel(() => import('./features/modbus/TcpLinkTab.tsx'), 'TcpLinkTab'),
    shownFor: ({ device }) => device.transportType === 'TCP',
  },
  {
    key: 'command',
    titleKey: 'command:tab',
    sort: 40,
    panel: lazyPanel(() => import('./features/command/CommandTab.tsx'), 'CommandTab'),
    shownFor: () => holdsPermission('device:command'),
  },
  {
    key: 'event',
    titleKey: 'eventRecord:tab',
    sort: 50,
    panel: lazyPanel(() => import('./features/event-record/EventTab.tsx'), 'EventTab'),
  },
  {
    key: 'task',
    titleKey: 'scene:task.tab',
    sort: 60,
    panel: lazyPanel(() => import('./features/scene-linkage/DeviceTaskTab.tsx'), 'DeviceTaskTab'),
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
    shownFor: () => holdsPermission('device:credentials:view'),
  },
  {
    key: 'video',
    titleKey: 'video:tab',
    sort: 80,
    panel: lazyPanel(() => import('./features/video/VideoChannelTab.tsx'), 'VideoChannelTab'),
    shownFor: () => holdsPermission('video:view'),
  },
]);

/**
 * The product detail page's tabs. The key is the `?tab=` value, so a tab can be linked to. Sort
 * slots: basic info 10, thing model 20, Modbus points 25, topic list 30, firmware 40.
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
    key: 'modbus',
    titleKey: 'modbus:planTab',
    sort: 25,
    panel: lazyPanel(() => import('./features/modbus/ModbusPlanTab.tsx'), 'ModbusPlanTab'),
    shownFor: ({ product }) => product.transportType === 'TCP' && product.tcpProtocolType === 'MODBUS_RTU',
  },
  {
    key: 'topic',
    titleKey: 'thingModel:topic.tab',
    sort: 30,
    panel: lazyPanel(() => import('./features/thing-model/ProductTopicTab.tsx'), 'ProductTopicTab'),
  },
]);

/**
 * Every page by its component name, the menu description's `component`
 * (server/contract/console-menu.ts): a menu entry, from that description or from the server's menu
 * call, resolves to its page here.
 */
export const pages: Record<ConsoleComponentName, PageLoader> = {
  LoginPage: named(() => import('./features/auth/LoginPage.tsx'), 'LoginPage'),
  ForgotPasswordPage: named(() => import('./features/auth/ForgotPasswordPage.tsx'), 'ForgotPasswordPage'),
  GuidePage: named(() => import('./features/guide/GuidePage.tsx'), 'GuidePage'),
  ExpiredLicensePage: named(() => import('./features/license/ExpiredLicensePage.tsx'), 'ExpiredLicensePage'),
  FactoryResetWaitPage: named(() => import('./features/system-config/FactoryResetWait.tsx'), 'FactoryResetWait'),
  ExceptionPage: named(() => import('./components/ExceptionPage.tsx'), 'ExceptionPage'),
  OfflineWordPage: named(() => import('./features/help/OfflineWordPage.tsx'), 'OfflineWordPage'),
  WorkbenchPage: named(() => import('./features/workbench/WorkbenchPage.tsx'), 'WorkbenchPage'),
  ProductListPage: named(() => import('./features/product/ProductListPage.tsx'), 'ProductListPage'),
  ProductDetailPage: named(() => import('./features/product/ProductDetailPage.tsx'), 'ProductDetailPage', { tabs: productTabs }),
  DeviceListPage: named(() => import('./features/device/DeviceListPage.tsx'), 'DeviceListPage'),
  DeviceDetailPage: named(() => import('./features/device/DeviceDetailPage.tsx'), 'DeviceDetailPage', { tabs: deviceTabs }),
  CategoryListPage: named(() => import('./features/category/CategoryListPage.tsx'), 'CategoryListPage'),
  NodeRedListPage: named(() => import('./features/node-red/NodeRedListPage.tsx'), 'NodeRedListPage'),
  NodeRedDetailPage: named(() => import('./features/node-red/NodeRedDetailPage.tsx'), 'NodeRedDetailPage'),
  ProtocolModuleListPage: named(() => import('./features/protocol-module/ProtocolModuleListPage.tsx'), 'ProtocolModuleListPage'),
  AlarmRecordPage: named(() => import('./features/alarm/AlarmRecordPage.tsx'), 'AlarmRecordPage'),
  SceneLinkageListPage: named(() => import('./features/scene-linkage/SceneLinkageListPage.tsx'), 'SceneLinkageListPage'),
  TemplatePage: named(() => import('./features/visualization/TemplatePage.tsx'), 'TemplatePage'),
  SandboxPage: named(() => import('./features/visualization/SandboxPage.tsx'), 'SandboxPage'),
  DesignerPage: named(() => import('./features/visualization/DesignerPage.tsx'), 'DesignerPage'),
  SandboxRunPage: named(() => import('./features/visualization/SandboxRunPage.tsx'), 'SandboxRunPage'),
  SharePage: named(() => import('./features/visualization/SharePage.tsx'), 'SharePage'),
  ReportListPage: named(() => import('./features/report/ReportListPage.tsx'), 'ReportListPage'),
  VideoListPage: named(() => import('./features/video/VideoListPage.tsx'), 'VideoListPage'),
  OrganizationPage: named(() => import('./features/organization/OrganizationPage.tsx'), 'OrganizationPage'),
  EdgeStatePage: named(() => import('./features/cloud-link/EdgeStatePage.tsx'), 'EdgeStatePage'),
  CloudEventPage: named(() => import('./features/cloud-link/CloudEventPage.tsx'), 'CloudEventPage'),
  NetworkConfigurationPage: named(() => import('./features/network/NetworkConfigurationPage.tsx'), 'NetworkConfigurationPage'),
  UserListPage: named(() => import('./features/user-admin/UserListPage.tsx'), 'UserListPage'),
  SystemConfigurationPage: named(() => import('./features/system-config/SystemConfigurationPage.tsx'), 'SystemConfigurationPage'),
  NoticeListPage: named(() => import('./features/notice/NoticeListPage.tsx'), 'NoticeListPage'),
  MyNoticePage: named(() => import('./features/notice/MyNoticePage.tsx'), 'MyNoticePage'),
  AuditLogPage: named(() => import('./features/audit-log/AuditLogPage.tsx'), 'AuditLogPage'),
  LogoManagePage: named(() => import('./features/operation/LogoManagePage.tsx'), 'LogoManagePage'),
  BannerManagePage: named(() => import('./features/operation/EntryListPage.tsx'), 'BannerManagePage'),
  GuideManagePage: named(() => import('./features/operation/EntryListPage.tsx'), 'GuideManagePage'),
  FirmwareManagePage: named(() => import('./features/operation/FirmwareManagePage.tsx'), 'FirmwareManagePage'),
  LicenseManagePage: named(() => import('./features/operation/LicenseManagePage.tsx'), 'LicenseManagePage'),
};

/** The route table: the menu description with each entry's page (front-end menu mode). */
export const routes: readonly AppRoute[] = consoleMenu.map(
  (def): AppRoute => ('component' in def ? { ...def, page: pages[def.component] } : def),
);
