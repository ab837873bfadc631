/**
 * Edge telemetry in (NODE_RED_TELEMETRY, a guest command: server/live.ts): a device's values as
 * they are stored, for the palette of a running instance that presents its own credential over
 * loopback. The palette opens one socket per instance, and only while an "in" node exists.
 */
import { NODE_RED_TELEMETRY_CMD, PaletteTelemetryCmdSchema, type PaletteTelemetryCmd, type PaletteTelemetryUpdate } from '../../contract/node-red-palette.ts';
import { WsErrorCode } from '../../contract/realtime.ts';
import type { TelemetryEntry } from '../../contract/telemetry.ts';
import { LiveRefusal, liveGuestCommand, type LiveCommands, type LiveContext, type LiveGuestRequest, type LiveSubscription } from '../../live.ts';
import type { Services } from '../../module.ts';

function updateOf(cmdId: number, deviceId: string, data: PaletteTelemetryUpdate['data']): PaletteTelemetryUpdate {
  return { cmdId, subscriptionId: cmdId, errorCode: 0, errorMsg: null, cmdUpdateType: NODE_RED_TELEMETRY_CMD, deviceId, data };
}

/**
 * The stored entries as messages, in the order they came: the writer commits several messages of a
 * device together, and a flow must see each (a refused value must not hide behind the next
 * message's value of the same key). A message carries a key once and its values share a time, so a
 * repeated key or another time starts the next one.
 */
function messagesOf(entries: readonly TelemetryEntry[]): PaletteTelemetryUpdate['data'][] {
  const messages: PaletteTelemetryUpdate['data'][] = [];
  let current: PaletteTelemetryUpdate['data'] = {};
  let ts: number | null = null;
  for (const e of entries) {
    if (ts !== null && (e.ts !== ts || e.key in current)) {
      messages.push(current);
      current = {};
    }
    current[e.key] = { ts: e.ts, value: e.value };
    ts = e.ts;
  }
  if (ts !== null) messages.push(current);
  return messages;
}

export function nodeRedPaletteLive({ nodeRedPalette, devices }: Pick<Services, 'nodeRedPalette' | 'devices'>, { bus }: LiveContext): LiveCommands {
  return {
    [NODE_RED_TELEMETRY_CMD]: liveGuestCommand<PaletteTelemetryCmd>({
      guest: true,
      kind: 'subscription',
      schema: PaletteTelemetryCmdSchema,
      updateType: NODE_RED_TELEMETRY_CMD,
      open: (request: LiveGuestRequest<PaletteTelemetryCmd>): LiveSubscription => {
        const { instanceId, secret, deviceId } = request.body;
        if (!nodeRedPalette.check(instanceId, secret, [request.ip])) throw new LiveRefusal(WsErrorCode.UNAUTHORIZED, 'error.nodeRedPalette.credential');
        // A device that does not exist is refused (404) before anything is followed.
        devices.get(deviceId);
        request.send(updateOf(request.cmdId, deviceId, {}));
        const off = bus.on('telemetry.stored', (stored) => {
          if (stored.deviceId !== deviceId) return;
          for (const data of messagesOf(stored.entries)) request.send(updateOf(request.cmdId, deviceId, data));
        });
        return { deviceIds: [deviceId], close: off };
      },
    }),
  };
}
