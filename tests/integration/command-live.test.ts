/**
 * The command module's live command type (COMMANDS) through a real /api/ws socket: a device's
 * command records as commands are sent over HTTP, and nothing more once the subscription ended.
 */
import { describe, expect, it } from 'vitest';
import { commandRoutes, type Command } from '../../server/contract/command.ts';
import type { CommandsUpdate } from '../../server/contract/realtime.ts';
import { expectSilenced, type LiveCmd, LiveClient, makeLiveApp, type LiveTestApp } from '../helpers/live.ts';

/** An asynchronous command: queued for a device that is offline. */
function sendCommand(t: LiveTestApp, deviceId: string, method: string): Promise<Command> {
  return t.api.ok(commandRoutes.send, {
    params: { id: deviceId },
    body: { commandType: 'CUSTOM', callType: 'ASYNC', way: 'twoway', content: JSON.stringify({ method }) },
  });
}

function commandsOf(cmdId: number, entityId: string): LiveCmd {
  return { type: 'COMMANDS', cmdId, entityType: 'DEVICE', entityId };
}

describe('COMMANDS over /api/ws', () => {
  it('answers that the subscription is live, pushes a command sent over HTTP, and stops after COMMANDS_UNSUBSCRIBE', async () => {
    const t = await makeLiveApp({ listen: true });
    const device = await t.api.createDevice();
    const ws = await LiveClient.open(t, { token: t.token });
    ws.send({ cmds: [commandsOf(1, device.id)] });
    expect(await ws.answer<CommandsUpdate>(1)).toEqual({ cmdId: 1, subscriptionId: 1, errorCode: 0, errorMsg: null, data: [], cmdUpdateType: 'COMMANDS' });

    const first = await sendCommand(t, device.id, 'getValue');
    const pushed = await ws.answer<CommandsUpdate>(1);
    expect(pushed.cmdUpdateType).toBe('COMMANDS');
    expect(pushed.data).toEqual([expect.objectContaining({ id: first.id, deviceId: device.id, status: 'QUEUED' })]);

    let second: Command | null = null;
    await expectSilenced(ws, {
      cmdId: 1,
      end: { type: 'COMMANDS_UNSUBSCRIBE', cmdId: 1 },
      witness: commandsOf(2, device.id),
      change: async () => (second = await sendCommand(t, device.id, 'reboot')),
      heard: (m) => (m as unknown as CommandsUpdate).data.some((c) => c.id === second?.id),
    });
  });
});
