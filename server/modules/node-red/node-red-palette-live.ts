/**
 * The palette's "in" nodes over /api/ws, guest commands (server/live.ts) of a running instance that
 * presents its own credential over loopback: edge telemetry in (NODE_RED_TELEMETRY, the values of
 * a device or of every device of a product, as they are stored) and edge TCP in (NODE_RED_TCP, a custom TCP device's frames). The
 * palette opens one socket per instance, and only while an "in" node exists.
 */
import {
  NODE_RED_TCP_CMD,
  NODE_RED_TELEMETRY_CMD,
  PaletteTcpCmdSchema,
  PaletteTelemetryCmdSchema,
  type PaletteTcpCmd,
  type PaletteTcpUpdate,
  type PaletteTelemetryCmd,
  type PaletteTelemetryUpdate,
} from '../../contract/node-red-palette.ts';
import { WsErrorCode } from '../../contract/realtime.ts';
import type { TelemetryEntry } from '../../contract/telemetry.ts';
import { LiveRefusal, liveGuestCommand, type LiveCommands, type LiveContext, type LiveGuestRequest, type LiveSubscription } from '../../live.ts';
import type { Services } from '../../module.ts';
import type { NodeRedPalette } from './node-red-palette.ts';

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

function tcpUpdateOf(cmdId: number, deviceId: string, frame: string | null): PaletteTcpUpdate {
  return { cmdId, subscriptionId: cmdId, errorCode: 0, errorMsg: null, cmdUpdateType: NODE_RED_TCP_CMD, deviceId, frame };
}

/** Refused on the command's cmdId unless the body carries a running instance's credential, from loopback. */
function checkCredential(palette: NodeRedPalette, request: LiveGuestRequest<{ instanceId: string; secret: string }>): void {
  if (!palette.check(request.body.instanceId, request.body.secret, [request.ip])) throw new LiveRefusal(WsErrorCode.UNAUTHORIZED, 'error.nodeRedPalette.credential');
}

export function nodeRedPaletteLive({ nodeRedPalette, devices, products }: Pick<Services, 'nodeRedPalette' | 'devices' | 'products'>, { bus }: LiveContext): LiveCommands {
  return {
    [NODE_RED_TELEMETRY_CMD]: liveGuestCommand<PaletteTelemetryCmd>({
      guest: true,
      kind: 'subscription',
      schema: PaletteTelemetryCmdSchema,
      updateType: NODE_RED_TELEMETRY_CMD,
      open: (request): LiveSubscription => {
        checkCredential(nodeRedPalette, request);
        const { deviceId, productId } = request.body;
        if ((deviceId === undefined) === (productId === undefined)) throw new LiveRefusal(WsErrorCode.BAD_REQUEST, 'error.nodeRedPalette.deviceOrProduct');
        // A device or product that does not exist is refused (404) before anything is followed.
        if (deviceId !== undefined) devices.get(deviceId);
        else products.get(productId!);
        // A product's devices as they are when each message is stored: one added later is followed too.
        const follows = deviceId !== undefined ? (s: { deviceId: string }) => s.deviceId === deviceId : (s: { deviceProfileId: string }) => s.deviceProfileId === productId;
        request.send(updateOf(request.cmdId, deviceId ?? '', {}));
        const off = bus.on('telemetry.stored', (stored) => {
          if (!follows(stored)) return;
          for (const data of messagesOf(stored.entries)) request.send(updateOf(request.cmdId, stored.deviceId, data));
        });
        return { deviceIds: deviceId !== undefined ? [deviceId] : [], close: off };
      },
    }),
    [NODE_RED_TCP_CMD]: liveGuestCommand<PaletteTcpCmd>({
      guest: true,
      kind: 'subscription',
      schema: PaletteTcpCmdSchema,
      updateType: NODE_RED_TCP_CMD,
      open: (request): LiveSubscription => {
        checkCredential(nodeRedPalette, request);
        const { deviceId } = request.body;
        const off = nodeRedPalette.onTcpFrames(deviceId, (frame) => request.send(tcpUpdateOf(request.cmdId, deviceId, frame.toString('hex'))));
        request.send(tcpUpdateOf(request.cmdId, deviceId, null));
        return { deviceIds: [deviceId], close: off };
      },
    }),
  };
}
