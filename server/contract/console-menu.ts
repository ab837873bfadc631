/**
 * The console's menu description, written once: what the console's route table (web/routes.tsx)
 * and the server's menu call (`GET /api/yt/getMenuList`, the console's back-end menu mode) both
 * need. The route table adds each page's lazy module, looked up by `component`; the server answers
 * the entries as the spec's menu tree. Field meanings: `RouteEntry` in web/lib/route-model.ts.
 *
 * - `menuType`: the spec's node type: a `category` groups entries (no page, it redirects to its
 *   first child), a `menu` opens a page, a `button` is an action inside a page (none yet).
 * - `component`: the page's name, by which a menu entry (from this table or from the server)
 *   resolves to its page.
 * - `fixed`: always the console's own, never part of the server's menu (sign-in, activation,
 *   exception pages): the console needs them before, or without, a menu.
 */
import Type, { type Static } from 'typebox';
import { consolePaths } from './console-paths.ts';
import { defineRoutes } from './route.ts';
import { ErrorBodySchema } from './errors.ts';

export const menuTypes = ['category', 'menu', 'button'] as const;
export type MenuType = (typeof menuTypes)[number];

export type MenuTitleKey = `menu:${Extract<keyof typeof import('../../locales/zh_CN/menu.json'), string>}`;

export interface MenuDefinition {
  path: string;
  name: string;
  titleKey: MenuTitleKey;
  menuType: MenuType;
  component?: string;
  group?: string;
  sort: number;
  icon?: string;
  permission?: string;
  hideMenu?: boolean;
  hideChildrenInMenu?: boolean;
  currentActiveMenu?: string;
  status?: number;
  isLink?: boolean;
  hideBreadcrumb?: boolean;
  /** 'operation': operation management's own shell, opened in a new tab (no console sidebar). */
  layout: 'main' | 'blank' | 'operation';
  public?: boolean;
  redirect?: string;
  fixed?: boolean;
}

const p = consolePaths;

export const consoleMenu = [
  { path: p.root, name: 'Root', titleKey: 'menu:root', menuType: 'menu', sort: 0, layout: 'main', hideMenu: true, redirect: p.workbench, fixed: true },

  // Full-page public screens (no token needed).
  { path: p.login, name: 'Login', titleKey: 'menu:login', menuType: 'menu', component: 'LoginPage', sort: 0, layout: 'blank', public: true, hideMenu: true, fixed: true },
  { path: p.forgotPassword, name: 'ForgotPassword', titleKey: 'menu:forgotPassword', menuType: 'menu', component: 'ForgotPasswordPage', sort: 0, layout: 'blank', public: true, hideMenu: true, fixed: true },
  { path: p.guide, name: 'Guide', titleKey: 'menu:guide', menuType: 'menu', component: 'GuidePage', sort: 0, layout: 'blank', public: true, hideMenu: true, fixed: true },
  { path: p.expiredLicense, name: 'ExpiredLicense', titleKey: 'menu:expiredLicense', menuType: 'menu', component: 'ExpiredLicensePage', sort: 0, layout: 'blank', public: true, hideMenu: true, fixed: true },
  { path: p.factoryReset, name: 'FactoryReset', titleKey: 'menu:factoryReset', menuType: 'menu', component: 'FactoryResetWaitPage', sort: 0, layout: 'blank', public: true, hideMenu: true, fixed: true },

  // Inside the main layout but never in the menu.
  { path: p.exception, name: 'Exception', titleKey: 'menu:exception', menuType: 'menu', component: 'ExceptionPage', sort: 0, layout: 'main', hideMenu: true, hideBreadcrumb: true, fixed: true },
  // A shared configuration on a wall display: no sign-in, the share token is its only key.
  { path: p.visualizationShare, name: 'VisualizationShare', titleKey: 'menu:visualizationShare', menuType: 'menu', component: 'SharePage', sort: 0, layout: 'blank', public: true, hideMenu: true, fixed: true },
  { path: p.offlineWord, name: 'OfflineWord', titleKey: 'menu:offlineWord', menuType: 'menu', component: 'OfflineWordPage', sort: 0, layout: 'main', hideMenu: true, fixed: true },

  // Dashboard (1)
  { path: p.dashboard, name: 'Dashboard', titleKey: 'menu:dashboard', menuType: 'category', sort: 1, icon: 'dashboard', layout: 'main' },
  { path: p.workbench, name: 'Workbench', titleKey: 'menu:workbench', menuType: 'menu', component: 'WorkbenchPage', group: 'Dashboard', sort: 1, permission: 'dashboard:view', layout: 'main' },

  // Device manage (3)
  { path: p.deviceManage, name: 'DeviceManage', titleKey: 'menu:deviceManage', menuType: 'category', sort: 3, icon: 'device', layout: 'main' },
  { path: p.product, name: 'Product', titleKey: 'menu:product', menuType: 'menu', component: 'ProductListPage', group: 'DeviceManage', sort: 1, permission: 'device_profile:list', layout: 'main' },
  { path: p.productDetail, name: 'ProductDetail', titleKey: 'menu:productDetail', menuType: 'menu', component: 'ProductDetailPage', group: 'DeviceManage', sort: 2, permission: 'device_profile:view', layout: 'main', hideMenu: true, currentActiveMenu: p.product },
  { path: p.device, name: 'Device', titleKey: 'menu:device', menuType: 'menu', component: 'DeviceListPage', group: 'DeviceManage', sort: 3, permission: 'device:list', layout: 'main' },
  { path: p.deviceDetail, name: 'DeviceDetail', titleKey: 'menu:deviceDetail', menuType: 'menu', component: 'DeviceDetailPage', group: 'DeviceManage', sort: 4, permission: 'device:view', layout: 'main', hideMenu: true, currentActiveMenu: p.device },
  { path: p.category, name: 'Category', titleKey: 'menu:category', menuType: 'menu', component: 'CategoryListPage', group: 'DeviceManage', sort: 5, permission: 'product_category:list', layout: 'main' },

  // Soft gateway (4)
  { path: p.softGateway, name: 'SoftGateway', titleKey: 'menu:softGateway', menuType: 'category', sort: 4, icon: 'gateway', layout: 'main' },
  { path: p.nodeRed, name: 'NodeRed', titleKey: 'menu:nodeRed', menuType: 'menu', component: 'NodeRedListPage', group: 'SoftGateway', sort: 1, permission: 'soft_gateway:manage', layout: 'main' },
  { path: p.nodeRedDetail, name: 'NodeRedDetail', titleKey: 'menu:nodeRedDetail', menuType: 'menu', component: 'NodeRedDetailPage', group: 'SoftGateway', sort: 2, permission: 'soft_gateway:manage', layout: 'main', hideMenu: true, currentActiveMenu: p.nodeRed },
  { path: p.protocolModule, name: 'ProtocolModule', titleKey: 'menu:protocolModule', menuType: 'menu', component: 'ProtocolModuleListPage', group: 'SoftGateway', sort: 3, permission: 'soft_gateway:manage', layout: 'main' },

  // Maintenance (5)
  { path: p.maintenance, name: 'Maintenance', titleKey: 'menu:maintenance', menuType: 'category', sort: 5, icon: 'maintenance', layout: 'main' },
  { path: p.alarmRecord, name: 'AlarmRecord', titleKey: 'menu:alarmRecord', menuType: 'menu', component: 'AlarmRecordPage', group: 'Maintenance', sort: 1, permission: 'alarm:list', layout: 'main' },

  // Rule engine (5, the same sort as Maintenance: table order breaks the tie)
  { path: p.ruleEngine, name: 'RuleEngine', titleKey: 'menu:ruleEngine', menuType: 'category', sort: 5, icon: 'rule', layout: 'main' },
  { path: p.sceneLinkage, name: 'SceneLinkage', titleKey: 'menu:sceneLinkage', menuType: 'menu', component: 'SceneLinkageListPage', group: 'RuleEngine', sort: 1, permission: 'scene_linkage:list', layout: 'main' },

  // Visualization configuration (6)
  { path: p.visualization, name: 'Visualization', titleKey: 'menu:visualization', menuType: 'category', sort: 6, icon: 'visualization', layout: 'main' },
  { path: p.visualizationTemplate, name: 'VisualizationTemplate', titleKey: 'menu:template', menuType: 'menu', component: 'TemplatePage', group: 'Visualization', sort: 1, permission: 'visualization:manage', layout: 'main' },
  { path: p.visualizationSandbox, name: 'VisualizationSandbox', titleKey: 'menu:sandbox', menuType: 'menu', component: 'SandboxPage', group: 'Visualization', sort: 2, permission: 'visualization:manage', layout: 'main' },
  { path: p.visualizationDesigner, name: 'VisualizationDesigner', titleKey: 'menu:visualizationDesigner', menuType: 'menu', component: 'DesignerPage', group: 'Visualization', sort: 3, permission: 'visualization:manage', layout: 'main', hideMenu: true, currentActiveMenu: p.visualizationSandbox },
  // Full screen: a wall display shows nothing but the configuration.
  { path: p.visualizationRun, name: 'VisualizationRun', titleKey: 'menu:sandbox', menuType: 'menu', component: 'SandboxRunPage', group: 'Visualization', sort: 4, permission: 'visualization:manage', layout: 'blank', hideMenu: true, currentActiveMenu: p.visualizationSandbox },
  { path: p.visualizationReport, name: 'VisualizationReport', titleKey: 'menu:report', menuType: 'menu', component: 'ReportListPage', group: 'Visualization', sort: 5, permission: 'visualization:manage', layout: 'main' },

  // Video center (7)
  { path: p.videoCenter, name: 'VideoCenter', titleKey: 'menu:videoCenter', menuType: 'category', sort: 7, icon: 'video', layout: 'main' },
  { path: p.video, name: 'Video', titleKey: 'menu:video', menuType: 'menu', component: 'VideoListPage', group: 'VideoCenter', sort: 1, permission: 'video:manage', layout: 'main' },

  // System (8)
  { path: p.system, name: 'System', titleKey: 'menu:system', menuType: 'category', sort: 8, icon: 'system', layout: 'main' },
  { path: p.organization, name: 'Organization', titleKey: 'menu:organization', menuType: 'menu', component: 'OrganizationPage', group: 'System', sort: 1, permission: 'organization:list', layout: 'main' },
  { path: p.edgeState, name: 'EdgeState', titleKey: 'menu:edgeState', menuType: 'menu', component: 'EdgeStatePage', group: 'System', sort: 2, permission: 'edge:state', layout: 'main' },
  { path: p.cloudEvent, name: 'CloudEvent', titleKey: 'menu:cloudEvent', menuType: 'menu', component: 'CloudEventPage', group: 'System', sort: 3, permission: 'edge:cloud_event:list', layout: 'main' },
  { path: p.networkConfiguration, name: 'NetworkConfiguration', titleKey: 'menu:networkConfiguration', menuType: 'menu', component: 'NetworkConfigurationPage', group: 'System', sort: 4, permission: 'system:network', layout: 'main', hideMenu: true },
  { path: p.user, name: 'User', titleKey: 'menu:user', menuType: 'menu', component: 'UserListPage', group: 'System', sort: 6, permission: 'user:list', layout: 'main' },
  { path: p.systemConfiguration, name: 'SystemConfiguration', titleKey: 'menu:systemConfiguration', menuType: 'menu', component: 'SystemConfigurationPage', group: 'System', sort: 5, permission: 'system:config', layout: 'main' },
  { path: p.notice, name: 'Notice', titleKey: 'menu:notice', menuType: 'menu', component: 'NoticeListPage', group: 'System', sort: 7, permission: 'notice:list', layout: 'main' },
  { path: p.myNotice, name: 'MyNotice', titleKey: 'menu:myNotice', menuType: 'menu', component: 'MyNoticePage', group: 'System', sort: 8, permission: 'notice:me', layout: 'main' },
  { path: p.auditLog, name: 'AuditLog', titleKey: 'menu:auditLog', menuType: 'menu', component: 'AuditLogPage', group: 'System', sort: 9, permission: 'audit_log:list', layout: 'main' },

  // Operation management (after System; the user popover's system-config icon opens it in a new
  // tab). Its pages render in their own layout (web/features/operation/OperationLayout.tsx).
  { path: p.operationManage, name: 'OperationManage', titleKey: 'menu:operationManage', menuType: 'category', sort: 9, icon: 'operation', layout: 'main' },
  { path: p.logoManage, name: 'LogoManage', titleKey: 'menu:logoManage', menuType: 'menu', component: 'LogoManagePage', group: 'OperationManage', sort: 1, permission: 'platform:info:update', layout: 'operation' },
  { path: p.bannerManage, name: 'BannerManage', titleKey: 'menu:bannerManage', menuType: 'menu', component: 'BannerManagePage', group: 'OperationManage', sort: 2, permission: 'platform:info:update', layout: 'operation' },
  { path: p.guideManage, name: 'GuideManage', titleKey: 'menu:guideManage', menuType: 'menu', component: 'GuideManagePage', group: 'OperationManage', sort: 3, permission: 'platform:info:update', layout: 'operation' },
  { path: p.firmwareManage, name: 'FirmwareManage', titleKey: 'menu:firmwareManage', menuType: 'menu', component: 'FirmwareManagePage', group: 'OperationManage', sort: 4, permission: 'system:firmware', layout: 'operation' },
  { path: p.licenseManage, name: 'LicenseManage', titleKey: 'menu:licenseManage', menuType: 'menu', component: 'LicenseManagePage', group: 'OperationManage', sort: 5, permission: 'platform:info:update', layout: 'operation' },
] as const satisfies readonly MenuDefinition[];

export type ConsoleComponentName = Extract<(typeof consoleMenu)[number], { component: string }>['component'];

/** The spec's menu meta of one entry. */
export const MenuMetaSchema = Type.Object({
  /** The console's text key of the title (`menu:product`): the console shows it in its language. */
  title: Type.String(),
  icon: Type.Union([Type.String(), Type.Null()]),
  menuType: Type.Enum(menuTypes),
  hideMenu: Type.Boolean(),
  hideBreadcrumb: Type.Boolean(),
  hideChildrenInMenu: Type.Boolean(),
  isLink: Type.Boolean(),
  /** 0 disabled, 1 enabled. */
  status: Type.Integer({ minimum: 0, maximum: 1 }),
  currentActiveMenu: Type.Union([Type.String(), Type.Null()]),
});
export type MenuMeta = Static<typeof MenuMetaSchema>;

export const MenuItemSchema = Type.Cyclic(
  {
    MenuItem: Type.Object({
      path: Type.String(),
      name: Type.String(),
      component: Type.Union([Type.String(), Type.Null()]),
      permission: Type.Union([Type.String(), Type.Null()]),
      sort: Type.Integer(),
      meta: MenuMetaSchema,
      children: Type.Optional(Type.Array(Type.Ref('MenuItem'))),
    }),
  },
  'MenuItem',
);
export type MenuItem = Static<typeof MenuItemSchema>;

export const menuRoutes = defineRoutes({
  list: {
    method: 'GET',
    url: '/api/yt/getMenuList',
    schema: {
      tags: ['menu'],
      summary: "The console's menu tree (the console's back-end menu mode), children ordered by sort",
      response: { 200: Type.Array(MenuItemSchema), 401: ErrorBodySchema },
    },
    config: { access: 'user', permission: 'personal:center', licenseFree: true, passwordChangeFree: true },
  },
});
