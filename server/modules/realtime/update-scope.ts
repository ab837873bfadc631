/**
 * The live host's last word on scope: every answer a subscription sends passes here before it
 * reaches the socket, whatever module contributed the command. A module scopes its own reads, but
 * a follower of bus events (telemetry stored, an alarm acknowledged, a device moved to another
 * organization) may hear of devices its subscriber no longer sees, or never saw; this drops them
 * on every update, not only the first answer, so no command type can forget it.
 */
import type { WsUpdate } from '../../contract/realtime.ts';
import type { ScopedDevices } from '../../lib/device-scope.ts';

/** An item of an answer's list that names a device: an entity (`entityId`) or a command record (`deviceId`). */
type DeviceItem = { entityId?: { id?: unknown } | null; deviceId?: unknown };

/** The device an item names, or undefined when it names none (an alarm without a device, a notification). */
function deviceOf(item: unknown): string | undefined {
  if (typeof item !== 'object' || item === null) return undefined;
  const { entityId, deviceId } = item as DeviceItem;
  if (typeof entityId?.id === 'string') return entityId.id;
  return typeof deviceId === 'string' ? deviceId : undefined;
}

/** `list` without the items naming a device outside the scope (the same list when none is). */
function visibleItems<T>(list: readonly T[], devices: ScopedDevices): T[] {
  const kept = list.filter((item) => {
    const id = deviceOf(item);
    return id === undefined || devices.exists(id);
  });
  return kept.length === list.length ? (list as T[]) : kept;
}

/**
 * `update` as `devices` (the subscriber's device reads, read anew each time: a device that moved
 * away is gone at once) may see it: null when nothing of it is left to send. `followed` is the
 * device the command named (`entityId` of TIMESERIES, ATTRIBUTES, COMMANDS), whose answers carry
 * no device of their own.
 */
export function scopedUpdate(update: WsUpdate, devices: ScopedDevices, followed: string | undefined): WsUpdate | null {
  // Errors carry nothing of a device, and a role that sees every device needs no filter.
  if (devices.scope === null || update.errorCode !== 0) return update;
  if (followed !== undefined && !devices.exists(followed)) return null;
  const fields = update as unknown as { update?: unknown; data?: unknown };
  const scoped: Record<string, unknown> = { ...update };
  let emptied = false;
  if (Array.isArray(fields.update)) {
    const kept = visibleItems(fields.update, devices);
    scoped.update = kept;
    emptied = fields.update.length > 0 && kept.length === 0;
  }
  if (Array.isArray(fields.data)) {
    const kept = visibleItems(fields.data, devices);
    scoped.data = kept;
    emptied ||= fields.data.length > 0 && kept.length === 0;
  } else if (typeof fields.data === 'object' && fields.data !== null && Array.isArray((fields.data as { data?: unknown }).data)) {
    // A first answer's page: the items outside go, the counts are the module's (read within the scope).
    const page = fields.data as { data: unknown[] };
    scoped.data = { ...page, data: visibleItems(page.data, devices) };
  }
  return emptied ? null : (scoped as unknown as WsUpdate);
}
