/**
 * The command module's live command on /api/ws (server/live.ts; server/contract/realtime.ts):
 * COMMANDS follows a device's command records as they are created and change status, so the
 * command list of the device page follows a command to its outcome without polling. Changes of
 * one turn of the event loop (a command created and sent at once) go out in one answer.
 */
import type { Command } from '../../contract/command.ts';
import { CommandsCmdSchema, WsErrorCode, type CommandsCmd, type CommandsUpdate } from '../../contract/realtime.ts';
import { notFound } from '../../lib/field-errors.ts';
import { Followers } from '../../lib/followers.ts';
import { OncePerTurn } from '../../lib/once-per-turn.ts';
import { liveCommand, type LiveCommands, type LiveContext, type LiveRequest, type LiveSubscription } from '../../live.ts';

function commandsUpdate(cmdId: number, data: Command[]): CommandsUpdate {
  return { subscriptionId: cmdId, cmdId, errorCode: WsErrorCode.NO_ERROR, errorMsg: null, data, cmdUpdateType: 'COMMANDS' };
}

class CommandsSubscription implements LiveSubscription {
  readonly deviceIds: readonly string[];
  private changed: Command[] = [];
  private readonly flush = new OncePerTurn(() => {
    const data = this.changed;
    this.changed = [];
    if (data.length) this.request.send(commandsUpdate(this.request.cmdId, data));
  });

  constructor(private readonly request: LiveRequest<CommandsCmd>) {
    this.deviceIds = [request.body.entityId];
  }

  start(): void {
    if (!this.request.devices.exists(this.deviceIds[0]!)) throw notFound();
    this.request.send(commandsUpdate(this.request.cmdId, []));
  }

  commandChanged(command: Command): void {
    this.changed.push(command);
    this.flush.request();
  }

  close(): void {
    this.flush.cancel();
    this.changed = [];
  }
}

/** COMMANDS: the same permission as the command records' HTTP list (server/contract/command.ts). */
export function commandLive(_services: unknown, { bus, log }: LiveContext): LiveCommands {
  const byDevice = new Followers<CommandsSubscription>(log);
  bus.on('command.changed', ({ deviceId, command }) => byDevice.each(deviceId, (sub) => sub.commandChanged(command)));
  return {
    COMMANDS: liveCommand<CommandsCmd>({
      schema: CommandsCmdSchema,
      updateType: 'COMMANDS',
      permission: 'device:command',
      deviceData: true,
      kind: 'subscription',
      open: (request) => {
        const sub = new CommandsSubscription(request);
        sub.start();
        const unfollow = byDevice.add(sub.deviceIds, sub);
        return {
          deviceIds: sub.deviceIds,
          close: () => {
            unfollow();
            sub.close();
          },
        };
      },
    }),
  };
}
