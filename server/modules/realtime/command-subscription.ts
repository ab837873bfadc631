/**
 * COMMANDS (server/contract/realtime.ts): a device's command records as they are created and
 * change status, so the command list of the device page follows a command to its outcome without
 * polling. Changes of one turn of the event loop (a command created and sent at once) go out in
 * one answer.
 */
import type { Command } from '../../contract/command.ts';
import { WsErrorCode, type CommandsCmd, type CommandsUpdate } from '../../contract/realtime.ts';
import { notFound } from '../../lib/field-errors.ts';
import type { LiveData } from './live-data.ts';
import { Subscription, type LiveSink } from './live-subscriptions.ts';

function commandsUpdate(cmdId: number, data: Command[]): CommandsUpdate {
  return { subscriptionId: cmdId, cmdId, errorCode: WsErrorCode.NO_ERROR, errorMsg: null, data, cmdUpdateType: 'COMMANDS' };
}

export class CommandsSubscription extends Subscription {
  readonly deviceIds: readonly string[];
  private changed: Command[] = [];
  private flush: NodeJS.Immediate | null = null;

  constructor(cmdId: number, sink: LiveSink, data: LiveData, cmd: CommandsCmd) {
    super(cmdId, sink, data);
    this.deviceIds = [cmd.entityId];
  }

  start(): void {
    if (!this.data.deviceExists(this.deviceIds[0]!)) throw notFound();
    this.sink.send(commandsUpdate(this.cmdId, []));
  }

  override commandChanged(_deviceId: string, command: Command): void {
    this.changed.push(command);
    this.flush ??= setImmediate(() => {
      this.flush = null;
      const data = this.changed;
      this.changed = [];
      if (data.length) this.sink.send(commandsUpdate(this.cmdId, data));
    });
  }

  override close(): void {
    if (this.flush) clearImmediate(this.flush);
    this.flush = null;
    this.changed = [];
  }
}
