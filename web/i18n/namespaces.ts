/**
 * Every locale namespace, once: one line each, naming the namespace and the zh_CN file whose shape
 * types its keys (i18n.ts gives `t()` these types). A new namespace is its two files,
 * locales/zh_CN/<ns>.json and locales/en_US/<ns>.json, and its line here; the parity check
 * (check-parity.ts) refuses a file without a line and a line naming another namespace's file.
 *
 * The console layout loads them all when it mounts: under preact a component that suspends for a
 * namespace inside an already-mounted form or dialog loses that form's state, so nothing inside the
 * signed-in console may wait for text after the layout is up.
 */

/**
 * A namespace's texts by their type only: nothing is loaded here (`typeof import` leaves no code in
 * the bundle); i18n.ts fetches each JSON file as its own chunk on first use.
 */
function texts<T>(): T {
  return undefined as T;
}

const resources = {
  auditLog: texts<typeof import('../../locales/zh_CN/auditLog.json')>(),
  alarm: texts<typeof import('../../locales/zh_CN/alarm.json')>(),
  auth: texts<typeof import('../../locales/zh_CN/auth.json')>(),
  category: texts<typeof import('../../locales/zh_CN/category.json')>(),
  cloudLink: texts<typeof import('../../locales/zh_CN/cloudLink.json')>(),
  command: texts<typeof import('../../locales/zh_CN/command.json')>(),
  common: texts<typeof import('../../locales/zh_CN/common.json')>(),
  credentials: texts<typeof import('../../locales/zh_CN/credentials.json')>(),
  device: texts<typeof import('../../locales/zh_CN/device.json')>(),
  deviceImport: texts<typeof import('../../locales/zh_CN/deviceImport.json')>(),
  errors: texts<typeof import('../../locales/zh_CN/errors.json')>(),
  eventRecord: texts<typeof import('../../locales/zh_CN/eventRecord.json')>(),
  exception: texts<typeof import('../../locales/zh_CN/exception.json')>(),
  firmware: texts<typeof import('../../locales/zh_CN/firmware.json')>(),
  guide: texts<typeof import('../../locales/zh_CN/guide.json')>(),
  http: texts<typeof import('../../locales/zh_CN/http.json')>(),
  layout: texts<typeof import('../../locales/zh_CN/layout.json')>(),
  license: texts<typeof import('../../locales/zh_CN/license.json')>(),
  manual: texts<typeof import('../../locales/zh_CN/manual.json')>(),
  menu: texts<typeof import('../../locales/zh_CN/menu.json')>(),
  notice: texts<typeof import('../../locales/zh_CN/notice.json')>(),
  nodeRed: texts<typeof import('../../locales/zh_CN/nodeRed.json')>(),
  modbus: texts<typeof import('../../locales/zh_CN/modbus.json')>(),
  network: texts<typeof import('../../locales/zh_CN/network.json')>(),
  organization: texts<typeof import('../../locales/zh_CN/organization.json')>(),
  operation: texts<typeof import('../../locales/zh_CN/operation.json')>(),
  ota: texts<typeof import('../../locales/zh_CN/ota.json')>(),
  product: texts<typeof import('../../locales/zh_CN/product.json')>(),
  scene: texts<typeof import('../../locales/zh_CN/scene.json')>(),
  user: texts<typeof import('../../locales/zh_CN/user.json')>(),
  settings: texts<typeof import('../../locales/zh_CN/settings.json')>(),
  system: texts<typeof import('../../locales/zh_CN/system.json')>(),
  systemConfig: texts<typeof import('../../locales/zh_CN/systemConfig.json')>(),
  table: texts<typeof import('../../locales/zh_CN/table.json')>(),
  telemetry: texts<typeof import('../../locales/zh_CN/telemetry.json')>(),
  thingModel: texts<typeof import('../../locales/zh_CN/thingModel.json')>(),
  video: texts<typeof import('../../locales/zh_CN/video.json')>(),
  userAdmin: texts<typeof import('../../locales/zh_CN/userAdmin.json')>(),
  visualization: texts<typeof import('../../locales/zh_CN/visualization.json')>(),
  reports: texts<typeof import('../../locales/zh_CN/reports.json')>(),
  workbench: texts<typeof import('../../locales/zh_CN/workbench.json')>(),
};

/** The zh_CN texts of every namespace: what typed `t()` keys are checked against. */
export type Resources = typeof resources;
export type Namespace = keyof Resources;

/** Every namespace at run time. */
export const namespaces = Object.keys(resources) as Namespace[];
