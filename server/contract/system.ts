/**
 * The gateway itself (shared/DESIGN.md §4 "System and network"): what the machine says about
 * itself, its clock (time zone, NTP, the time by hand) and the factory reset.
 */
import Type, { type Static } from 'typebox';
import { ErrorBodySchema } from './errors.ts';
import { defineRoutes } from './route.ts';
import { Nullable } from './common.ts';
import { WrittenBytesSchema } from './telemetry-storage.ts';
import { networkAppliers, type NetworkApplierName } from './network.ts';
import { HOST_PATTERN, IPV4_PATTERN, PASSWORD_MAX } from './validation.ts';

const Bytes = Type.Number({ minimum: 0 });

/** Which tool carries out host changes (`--network-applier`; `file` only records them): network.ts's list. */
export type NetworkApplier = NetworkApplierName;

/** An NTP server: a host name (3–255 characters) or an IPv4 address. */
export const NTP_SERVER_PATTERN = `(${IPV4_PATTERN})|(${HOST_PATTERN})`;
export const NTP_SERVERS_MAX = 8;
/** Longest IANA zone name in use is ~30 characters ("America/Argentina/ComodRivadavia"). */
export const TIME_ZONE_MAX = 64;

export const NtpStateSchema = Type.Object({
  enabled: Type.Boolean(),
  servers: Type.Array(Type.String()),
  /** Whether the clock is synchronized; null where the applier cannot tell (file mode). */
  synced: Nullable(Type.Boolean()),
});

export const SystemInfoSchema = Type.Object({
  deviceSn: Type.String(),
  version: Type.String(),
  /** The git commit the binary was built from; null in a build without one (development). */
  commit: Nullable(Type.String()),
  /** Seconds since the machine booted (not the process). */
  uptimeS: Type.Integer({ minimum: 0 }),
  /** The gateway's clock, epoch ms, read when answering. */
  systemTime: Type.Integer(),
  /** IANA time zone of the host (file mode: the recorded one, else the process's). */
  timeZone: Type.String(),
  ntp: NtpStateSchema,
  applier: Type.Enum(networkAppliers),
  cpu: Type.Object({ percent: Type.Number({ minimum: 0, maximum: 100 }), cores: Type.Integer({ minimum: 1 }), model: Type.String() }),
  memory: Type.Object({ total: Bytes, used: Bytes }),
  /** The file system holding the data directory. */
  disk: Type.Object({ total: Bytes, used: Bytes }),
  dataDir: Type.Object({ path: Type.String(), bytes: Bytes }),
  /** The machine's IPv4 addresses now (the network tab shows them; the network page configures them). */
  addresses: Type.Array(Type.Object({ interface: Type.String(), address: Type.String(), netmask: Type.String(), mac: Type.String() })),
  /** What the process wrote to storage over the last 24 h (the telemetry write meter). */
  written: WrittenBytesSchema,
});
export type SystemInfo = Static<typeof SystemInfoSchema>;

export const SystemTimeBodySchema = Type.Object(
  {
    timeZone: Type.String({ minLength: 1, maxLength: TIME_ZONE_MAX }),
    ntpEnabled: Type.Boolean(),
    ntpServers: Type.Array(Type.String({ maxLength: 255, pattern: NTP_SERVER_PATTERN }), { maxItems: NTP_SERVERS_MAX }),
    /** The time to set, epoch ms; only while NTP is off (NTP would overwrite it). */
    time: Type.Optional(Type.Integer({ minimum: 0 })),
  },
  { additionalProperties: false },
);
export type SystemTimeBody = Static<typeof SystemTimeBodySchema>;

/** What the time applier holds after a change (the same fields GET /system/info shows). */
export const SystemTimeSchema = Type.Object({ timeZone: Type.String(), ntp: NtpStateSchema, systemTime: Type.Integer() });
export type SystemTime = Static<typeof SystemTimeSchema>;

/** The word typed to confirm a factory reset. */
export const RESET_CONFIRM_WORD = 'RESET';

export const FactoryResetBodySchema = Type.Object(
  {
    /** The caller's own password, checked again. */
    password: Type.String({ minLength: 1, maxLength: PASSWORD_MAX + 98 }),
    /** Must be `RESET` (checked by the service, so the refusal names the field). */
    confirm: Type.String({ maxLength: 32 }),
    keepLicense: Type.Boolean(),
  },
  { additionalProperties: false },
);
export type FactoryResetBody = Static<typeof FactoryResetBodySchema>;

export const FactoryResetAcceptedSchema = Type.Object({
  /** The gateway restarts in-process; poll GET /api/yt/setup/state until adminCreated is false. */
  accepted: Type.Literal(true),
});

const tags = ['system'];
const errors = { 400: ErrorBodySchema, 401: ErrorBodySchema, 403: ErrorBodySchema };

export const systemRoutes = defineRoutes({
  info: {
    method: 'GET',
    url: '/api/yt/system/info',
    schema: { tags, summary: 'Serial number, version, uptime, clock, NTP, CPU, memory, disk and data-dir usage, read from the machine', response: { 200: SystemInfoSchema, ...errors } },
    config: { access: 'user', permission: 'system:config' },
  },
  time: {
    method: 'PUT',
    url: '/api/yt/system/time',
    schema: {
      tags,
      summary: 'Set the time zone, NTP servers, or the time by hand while NTP is off (through --network-applier)',
      body: SystemTimeBodySchema,
      response: { 200: SystemTimeSchema, ...errors },
    },
    config: { access: 'user', permission: 'system:config' },
  },
  reset: {
    method: 'POST',
    url: '/api/yt/system/reset',
    schema: {
      tags,
      summary: 'Factory reset: wipes the database, uploads, secrets and cloud link (the licence only without keepLicense), then restarts to first boot',
      body: FactoryResetBodySchema,
      response: { 202: FactoryResetAcceptedSchema, ...errors },
    },
    config: { access: 'user', permission: 'system:reset' },
  },
});
