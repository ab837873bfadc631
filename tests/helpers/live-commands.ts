/**
 * One valid command of every live command type of /api/ws, naming a device where the type can,
 * with the HTTP routes that read the same data (its "twins"): a role refused by a twin is refused
 * the command, and a device outside the caller's scope is as absent there as over HTTP. The role
 * and scope matrices (tests/integration/permission-matrix.test.ts, scope-matrix.test.ts) send each
 * of them; a type the server serves without an entry here fails them, so none is left out.
 */
import { alarmRoutes } from '../../server/contract/alarm.ts';
import { cloudLinkRoutes } from '../../server/contract/cloud-link.ts';
import { commandRoutes } from '../../server/contract/command.ts';
import { deviceRoutes } from '../../server/contract/device.ts';
import { notificationRoutes } from '../../server/contract/notification.ts';
import { otaRoutes } from '../../server/contract/ota.ts';
import type { RouteDef } from '../../server/contract/route.ts';
import { telemetryRoutes } from '../../server/contract/telemetry.ts';

export interface LiveCommandSample {
  /** The command's fields besides `type` and `cmdId`. */
  body: Record<string, unknown>;
  /** HTTP routes reading the same data: the command is for roles holding all their permissions. */
  twins: readonly RouteDef[];
}

/**
 * The command types a signed-in user's socket serves: guest commands (share links, server/live.ts)
 * run only on sockets without a user and carry their own credential, so no role or scope applies
 * to them; visualization-live.test.ts checks them.
 */
export function userCommandTypes(commands: Readonly<Record<string, { guest?: boolean }>>): string[] {
  return Object.entries(commands)
    .filter(([, command]) => command.guest !== true)
    .map(([type]) => type);
}

/** Every live command type's sample, naming `deviceId`. */
export function liveCommandSamples(deviceId: string): Record<string, LiveCommandSample> {
  const device = { entityType: 'DEVICE', entityId: deviceId };
  const single = { type: 'singleEntity', singleEntity: { entityType: 'DEVICE', id: deviceId } };
  const list = { type: 'entityList', entityType: 'DEVICE', entityList: [deviceId] };
  const telemetry = telemetryRoutes.timeseries;
  return {
    TIMESERIES: { body: { ...device, scope: 'LATEST_TELEMETRY' }, twins: [telemetry] },
    TIMESERIES_HISTORY: { body: { ...device, keys: 'temperature', startTs: 0, endTs: Date.now() + 60_000 }, twins: [telemetry] },
    ATTRIBUTES: { body: { ...device, scope: 'CLIENT_SCOPE' }, twins: [telemetryRoutes.attributes] },
    ENTITY_DATA: {
      body: { query: { entityFilter: list, pageLink: { page: 0, pageSize: 10 }, latestValues: [{ type: 'TIME_SERIES', key: 'temperature' }] } },
      twins: [deviceRoutes.get, telemetry],
    },
    ENTITY_COUNT: { body: { query: { entityFilter: list } }, twins: [deviceRoutes.list, telemetry] },
    ALARM_DATA: { body: { query: { entityFilter: single, pageLink: { page: 0, pageSize: 10 } } }, twins: [alarmRoutes.list, telemetry] },
    ALARM_COUNT: { body: { query: { entityFilter: single } }, twins: [alarmRoutes.list, telemetry] },
    COMMANDS: { body: device, twins: [commandRoutes.list] },
    NOTIFICATIONS: { body: { limit: 10 }, twins: [notificationRoutes.list] },
    NOTIFICATIONS_COUNT: { body: {}, twins: [notificationRoutes.list] },
    MARK_NOTIFICATIONS_AS_READ: { body: { notifications: ['matrix-notification'] }, twins: [notificationRoutes.read] },
    MARK_ALL_NOTIFICATIONS_AS_READ: { body: {}, twins: [notificationRoutes.readAll] },
    EDGE_STATE: { body: {}, twins: [cloudLinkRoutes.state] },
    // Another organization's devices are left out of a package's list; an unknown package is not found.
    OTA_PROGRESS: { body: { packageId: 'matrix-ota' }, twins: [otaRoutes.devices] },
  };
}
