/**
 * Command calls over the contract (server/contract/command.ts). Sending is silent: the delivery
 * dialog shows a refusal (e.g. "the current device is offline") where the user is looking; the
 * reboot and withdraw buttons let the client show the server's reason.
 */
import { commandRoutes, COMMAND_TIMEOUT_DEFAULT_MS, type Command, type CommandBody } from '../../../server/contract/command.ts';
import { api, REQUEST_TIMEOUT_MS } from '../../lib/api-client.ts';

/** Extra wait over a SYNC command's own timeout: the answer comes after the device's outcome. */
const SYNC_MARGIN_MS = 5_000;

export function sendCommand(deviceId: string, body: CommandBody): Promise<Command> {
  const waits = body.callType === 'SYNC' && body.way === 'twoway';
  const timeoutMs = waits ? (body.timeoutMs ?? COMMAND_TIMEOUT_DEFAULT_MS) + SYNC_MARGIN_MS : REQUEST_TIMEOUT_MS;
  return api(commandRoutes.send, { params: { id: deviceId }, body, silent: true, timeoutMs });
}

export function rebootDevice(deviceId: string): Promise<Command> {
  return api(commandRoutes.reboot, { params: { id: deviceId }, timeoutMs: REQUEST_TIMEOUT_MS + SYNC_MARGIN_MS });
}

export function withdrawCommand(deviceId: string, commandId: string): Promise<Command> {
  return api(commandRoutes.withdraw, { params: { id: deviceId, commandId } });
}
