/**
 * Network configuration (shared/DESIGN.md §4 "System and network"): the LAN, WAN, WiFi and 4G
 * settings, read from the machine and changed through an applier (`--network-applier`) under a
 * safe apply that rolls back by itself unless confirmed in time, across restarts too
 * (server/modules/network/). The rules of the fields are server/contract/rules/network.ts; the
 * schemas here only bound the sizes, so a refusal names the field with the rule's own text.
 */
import Type, { type Static } from 'typebox';
import { ErrorBodySchema } from './errors.ts';
import { defineRoutes } from './route.ts';

export const networkAppliers = ['file', 'networkmanager', 'openwrt'] as const;
export type NetworkApplierName = (typeof networkAppliers)[number];

/** IMMOBILIZATION: a fixed address; AUTO: DHCP (the spec's names). */
export const connectionTypes = ['IMMOBILIZATION', 'AUTO'] as const;
export type ConnectionType = (typeof connectionTypes)[number];

export const wifiModes = ['client', 'ap'] as const;
export type WifiMode = (typeof wifiModes)[number];

export const wifiSecurities = ['none', 'wep', 'wpa2', 'wpa3'] as const;
export type WifiSecurity = (typeof wifiSecurities)[number];

/** ModemManager's modem states (MMModemState as mmcli writes them), each with a text in the network namespace. */
export const modemStates = ['failed', 'unknown', 'initializing', 'locked', 'disabled', 'disabling', 'enabling', 'enabled', 'searching', 'registered', 'disconnecting', 'connecting', 'connected'] as const;
export type ModemState = (typeof modemStates)[number];

/** At most this many DNS servers per interface (what resolv.conf honours). */
export const DNS_MAX = 3;

/** The safe-apply window, seconds. */
export const CONFIRM_WITHIN = { min: 10, max: 600, default: 90 } as const;

const Address = Type.String({ maxLength: 64 });

const interfaceSettings = {
  connectionType: Type.Enum(connectionTypes),
  /** Empty under AUTO. */
  ipAddress: Address,
  subnetMask: Address,
  gateway: Address,
  dns: Type.Array(Address, { maxItems: 16 }),
};

export const DhcpServerSchema = Type.Object(
  { enabled: Type.Boolean(), poolStart: Address, poolEnd: Address },
  { additionalProperties: false },
);
export type DhcpServer = Static<typeof DhcpServerSchema>;

export const WanSettingsSchema = Type.Object(interfaceSettings, { additionalProperties: false });
export type WanSettings = Static<typeof WanSettingsSchema>;

export const LanSettingsSchema = Type.Object({ ...interfaceSettings, dhcpServer: DhcpServerSchema }, { additionalProperties: false });
export type LanSettings = Static<typeof LanSettingsSchema>;

export const WifiSettingsSchema = Type.Object(
  {
    enabled: Type.Boolean(),
    mode: Type.Enum(wifiModes),
    ssid: Type.String({ maxLength: 128 }),
    security: Type.Enum(wifiSecurities),
    /** Write-only: absent keeps the stored one; never returned. */
    password: Type.Optional(Type.String({ maxLength: 128 })),
  },
  { additionalProperties: false },
);
export type WifiSettings = Static<typeof WifiSettingsSchema>;

export const CellularSettingsSchema = Type.Object(
  {
    enabled: Type.Boolean(),
    apn: Type.String({ maxLength: 128 }),
    /** Write-only: absent keeps the stored one, empty removes it; never returned. */
    pin: Type.Optional(Type.String({ maxLength: 16 })),
  },
  { additionalProperties: false },
);
export type CellularSettings = Static<typeof CellularSettingsSchema>;

/** Everything an applier sets; a plan or apply body names any of the four sections, each whole. */
export const NetworkSettingsSchema = Type.Object(
  {
    lan: Type.Optional(LanSettingsSchema),
    wan: Type.Optional(WanSettingsSchema),
    wifi: Type.Optional(WifiSettingsSchema),
    cellular: Type.Optional(CellularSettingsSchema),
  },
  { additionalProperties: false },
);
export type NetworkSettingsBody = Static<typeof NetworkSettingsSchema>;
/** The four sections, all present: what an applier applies and what a rollback restores. */
export type NetworkSettings = Required<NetworkSettingsBody>;

/** What the machine says besides the settings: never sent back. */
const readOnlyInterface = {
  /** The host's interface name (eth0, br-lan…); empty when the machine has none for this role. */
  interfaceName: Type.String(),
  macAddress: Type.String(),
};

export const NetworkStateSchema = Type.Object({
  applier: Type.Enum(networkAppliers),
  lan: Type.Object({ ...LanSettingsSchema.properties, ...readOnlyInterface }),
  wan: Type.Object({ ...WanSettingsSchema.properties, ...readOnlyInterface }),
  wifi: Type.Object({
    enabled: Type.Boolean(),
    mode: Type.Enum(wifiModes),
    ssid: Type.String(),
    security: Type.Enum(wifiSecurities),
    passwordSet: Type.Boolean(),
    ...readOnlyInterface,
  }),
  cellular: Type.Object({
    enabled: Type.Boolean(),
    apn: Type.String(),
    pinSet: Type.Boolean(),
    /** Empty when no modem answers. */
    imei: Type.String(),
    iccid: Type.String(),
    /** dBm; null when unknown. */
    signalDbm: Type.Union([Type.Integer(), Type.Null()]),
    /** Percent (ModemManager's signal quality); null when unknown. */
    signalQuality: Type.Union([Type.Integer({ minimum: 0, maximum: 100 }), Type.Null()]),
    /** The network operator's name; empty when not registered. */
    operator: Type.String(),
    /** ModemManager's modem state (modemStates); empty when no modem answers. */
    modemState: Type.String(),
  }),
  pending: Type.Optional(Type.Object({ applyId: Type.String(), confirmBy: Type.String({ format: 'date-time' }) })),
});
export type NetworkState = Static<typeof NetworkStateSchema>;

export const NetworkChangeSchema = Type.Object({
  /** Dotted path: `lan.ipAddress`, `lan.dhcpServer.poolEnd`, `wifi.password` (values of secrets are masked). */
  path: Type.String(),
  from: Type.Unknown(),
  to: Type.Unknown(),
});
export type NetworkChange = Static<typeof NetworkChangeSchema>;

export const NetworkPlanSchema = Type.Object({ changes: Type.Array(NetworkChangeSchema) });
export type NetworkPlan = Static<typeof NetworkPlanSchema>;

export const NetworkApplyBodySchema = Type.Object(
  {
    ...NetworkSettingsSchema.properties,
    confirmWithinS: Type.Optional(Type.Integer({ minimum: CONFIRM_WITHIN.min, maximum: CONFIRM_WITHIN.max, default: CONFIRM_WITHIN.default })),
  },
  { additionalProperties: false },
);
export type NetworkApplyBody = Static<typeof NetworkApplyBodySchema>;

export const NetworkApplyResultSchema = Type.Object({
  applyId: Type.String(),
  confirmBy: Type.String({ format: 'date-time' }),
  /**
   * Where the console answers after the change when the LAN address the browser used changed on
   * the host: the page moves there and confirms from it. Absent when the address did not change or
   * the applier does not touch the host (`file`).
   */
  newUrl: Type.Optional(Type.String()),
});
export type NetworkApplyResult = Static<typeof NetworkApplyResultSchema>;

export const NetworkConfirmBodySchema = Type.Object({ applyId: Type.String({ maxLength: 64 }) }, { additionalProperties: false });

export const WifiNetworkSchema = Type.Object({
  ssid: Type.String(),
  /** 0–100. */
  signal: Type.Integer(),
  security: Type.Enum(wifiSecurities),
});
export type WifiNetwork = Static<typeof WifiNetworkSchema>;

const tags = ['network'];
const permission = 'system:network';

export const networkRoutes = defineRoutes({
  get: {
    method: 'GET',
    url: '/api/yt/network',
    schema: { tags, summary: 'The LAN, WAN, WiFi and 4G settings as the machine has them, and a change awaiting confirmation', response: { 200: NetworkStateSchema } },
    config: { access: 'user', permission },
  },
  plan: {
    method: 'POST',
    url: '/api/yt/network/plan',
    schema: { tags, summary: 'What applying these sections would change, field by field', body: NetworkSettingsSchema, response: { 200: NetworkPlanSchema, 400: ErrorBodySchema } },
    config: { access: 'user', permission },
  },
  apply: {
    method: 'POST',
    url: '/api/yt/network/apply',
    schema: {
      tags,
      summary: 'Apply these sections; without a confirmation within confirmWithinS (10-600, default 90) the previous settings come back, also after a restart',
      body: NetworkApplyBodySchema,
      response: { 200: NetworkApplyResultSchema, 400: ErrorBodySchema, 409: ErrorBodySchema, 502: ErrorBodySchema },
    },
    config: { access: 'user', permission },
  },
  confirm: {
    method: 'POST',
    url: '/api/yt/network/confirm',
    schema: {
      tags,
      summary: 'Keep the change awaiting confirmation; the applyId itself is the credential (docs/SECURITY.md, "Network apply")',
      body: NetworkConfirmBodySchema,
      response: { 200: Type.Object({ confirmed: Type.Literal(true) }), 400: ErrorBodySchema },
    },
    // Public: after a LAN address change the console confirms from the new address, a new origin
    // where the session token (kept per origin) does not exist. The applyId is 256 random bits that
    // only the administrator who applied received, and it can only keep what that administrator applied.
    config: { access: 'public' },
  },
  wifiScan: {
    method: 'GET',
    url: '/api/yt/network/wifi/scan',
    schema: { tags, summary: 'WiFi networks in range, strongest first', response: { 200: Type.Array(WifiNetworkSchema) } },
    config: { access: 'user', permission },
  },
});
