/**
 * The console's paths, written once. The route table (web/routes.tsx) gives each its page, menu
 * place and title; the rest of the console links with these names; the server needs some of them
 * (server/plugins/static.ts: the activation wizard it redirects to and the pages it serves without
 * a licence). The keys are the route table's entry names in camelCase.
 *
 * A pattern holds `:name` for a parameter and `:name?` for an optional last one; `consolePath()`
 * fills them in.
 */
export const consolePaths = {
  root: '/',
  login: '/login',
  forgotPassword: '/forgot-password',
  guide: '/guide',
  expiredLicense: '/expired-upload-license',
  /** The factory-reset wait: outside the signed-in shell, whose session the reset ends. */
  factoryReset: '/factory-reset',
  exception: '/exception',
  offlineWord: '/offline-word',

  dashboard: '/dashboard',
  workbench: '/dashboard/workbench',

  deviceManage: '/device-manage',
  product: '/device-manage/product',
  productDetail: '/device-manage/product/:id/:isShowCreate?',
  device: '/device-manage/device',
  deviceDetail: '/device-manage/device/:id/:alarm?',
  category: '/device-manage/category',

  softGateway: '/soft-gateway',
  nodeRed: '/soft-gateway/node-red',
  nodeRedDetail: '/soft-gateway/node-red/:id',
  protocolModule: '/soft-gateway/protocol-module',

  maintenance: '/maintenance',
  alarmRecord: '/maintenance/alarm-record',

  ruleEngine: '/rule-engine',
  sceneLinkage: '/rule-engine/scene-linkage',

  visualization: '/visualization/configuration',
  visualizationTemplate: '/visualization/configuration/template',
  visualizationSandbox: '/visualization/configuration/sandbox',
  visualizationDesigner: '/visualization/configuration/design/:id',
  visualizationRun: '/visualization/configuration/sandbox/:id',
  visualizationShare: '/visualization/share/:shareToken',
  visualizationReport: '/visualization/report',

  videoCenter: '/video-center',
  video: '/video-center/video',

  system: '/system',
  organization: '/system/organization',
  edgeState: '/system/marginal-state',
  cloudEvent: '/system/cloud-event',
  networkConfiguration: '/system/network-configuration',
  systemConfiguration: '/system/system-configuration',
  notice: '/system/notice',
  myNotice: '/system/my-notice',
  auditLog: '/system/audit-log',
  user: '/system/user',

  operationManage: '/operation-manage',
  logoManage: '/operation-manage/logo',
  bannerManage: '/operation-manage/banner',
  guideManage: '/operation-manage/guide',
  firmwareManage: '/operation-manage/firmware',
  licenseManage: '/operation-manage/license',
} as const;

export type ConsolePathName = keyof typeof consolePaths;

type Segment<P extends string> = P extends `${infer Head}/${infer Tail}` ? Head | Segment<Tail> : P;
type RequiredParam<S> = S extends `:${string}?` ? never : S extends `:${infer Name}` ? Name : never;
type OptionalParam<S> = S extends `:${infer Name}?` ? Name : never;

/** The parameters a pattern takes: `:id` is required, `:tab?` may be left out. */
export type PathParams<P extends string> = { [K in RequiredParam<Segment<P>>]: string } & {
  [K in OptionalParam<Segment<P>>]?: string | undefined;
};

/** `pattern` with its parameters filled in (URI-encoded); an optional one left out drops its segment. */
export function consolePath<P extends string>(pattern: P, params: PathParams<P>): string {
  const values = params as Record<string, string | undefined>;
  const segments = pattern.split('/').flatMap((segment) => {
    const param = /^:(\w+)(\?)?$/.exec(segment);
    if (!param) return [segment];
    const value = values[param[1] as string] ?? '';
    return param[2] && value === '' ? [] : [encodeURIComponent(value)];
  });
  return segments.join('/') || '/';
}

/** A device's detail page, optionally on one of its tabs (the tab's key is the last segment). */
export function deviceDetailPath(id: string, tab?: string): string {
  return consolePath(consolePaths.deviceDetail, { id, alarm: tab });
}

/** A product's detail page; `edit` opens its edit drawer on arrival (the `isShowCreate` segment). */
export function productDetailPath(id: string, edit = false): string {
  return consolePath(consolePaths.productDetail, { id, isShowCreate: edit ? '1' : undefined });
}
