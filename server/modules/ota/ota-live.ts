/**
 * The OTA module's live command on /api/ws (server/live.ts): OTA_PROGRESS answers a firmware's
 * device list and sends it again whenever a device of it changes (`ota.deviceChanged`: queued,
 * notified, or a `fw_state` it reported), at most once per turn of the event loop.
 */
import { OtaProgressCmdSchema, type OtaProgressCmd } from '../../contract/ota.ts';
import { WsErrorCode } from '../../contract/realtime.ts';
import { Followers } from '../../lib/followers.ts';
import { OncePerTurn } from '../../lib/once-per-turn.ts';
import { liveCommand, type LiveCommands, type LiveContext, type LiveRequest } from '../../live.ts';
import type { Services } from '../../module.ts';

export function otaLive({ ota }: Pick<Services, 'ota'>, { bus, log }: LiveContext): LiveCommands {
  const followers = new Followers<OncePerTurn>(log);
  bus.on('ota.deviceChanged', ({ packageId }) => followers.each(packageId, (send) => send.request()));

  const sendDevices = (request: LiveRequest<OtaProgressCmd>): void =>
    request.send({
      subscriptionId: request.cmdId,
      cmdId: request.cmdId,
      errorCode: WsErrorCode.NO_ERROR,
      errorMsg: null,
      // A package deleted meanwhile has no devices left.
      data: ota.exists(request.body.packageId) ? ota.devices(request.body.packageId, (id) => request.devices.exists(id)) : [],
      cmdUpdateType: 'OTA_PROGRESS',
    });

  return {
    OTA_PROGRESS: liveCommand<OtaProgressCmd>({
      schema: OtaProgressCmdSchema,
      updateType: 'OTA_PROGRESS',
      // The permission of its HTTP twin, GET /api/yt/ota/{id}/devices.
      permission: 'device_profile:view',
      kind: 'subscription',
      open: (request) => {
        ota.get(request.body.packageId);
        sendDevices(request);
        const send = new OncePerTurn(() => sendDevices(request));
        const stop = followers.add([request.body.packageId], send);
        return {
          close: () => {
            stop();
            send.cancel();
          },
        };
      },
    }),
  };
}
