import { describe, expect, it } from 'vitest';
import type { Command } from '../../server/contract/command.ts';
import { laterCommand, mergeCommands } from '../../web/lib/use-live.ts';
import { unsubscribeTypeOf } from '../../web/lib/ws-client.ts';

function command(overrides: Partial<Command>): Command {
  return {
    id: 'c1',
    deviceId: 'd1',
    requestId: 1,
    commandType: 'CUSTOM',
    callType: 'ASYNC',
    way: 'twoway',
    format: 'JSON',
    content: '{"method":"ping"}',
    status: 'SENT',
    responseType: null,
    responseContent: null,
    timeoutMs: 10_000,
    expiresTime: null,
    createdTime: 1_000,
    sentTime: 1_000,
    deliveredTime: null,
    respondedTime: null,
    updatedTime: 1_000,
    source: 'USER',
    ...overrides,
  };
}

describe('live command records', () => {
  it('keeps the later copy of a record: the newer update, or the further status within one millisecond', () => {
    const sent = command({ status: 'SENT', updatedTime: 1_000 });
    const delivered = command({ status: 'DELIVERED', updatedTime: 1_005 });
    const answered = command({ status: 'SUCCESSFUL', updatedTime: 1_005 });
    expect(laterCommand(sent, delivered)).toBe(delivered);
    expect(laterCommand(delivered, sent)).toBe(delivered);
    expect(laterCommand(answered, delivered)).toBe(answered);
    expect(laterCommand(delivered, answered)).toBe(answered);
  });

  it('merges pushed records by id without letting a late copy move a status back', () => {
    const live = mergeCommands({}, [command({ status: 'QUEUED', updatedTime: 1 }), command({ status: 'SENT', updatedTime: 2 })]);
    expect(live.c1?.status).toBe('SENT');
    const next = mergeCommands(live, [command({ id: 'c2', status: 'QUEUED' }), command({ status: 'QUEUED', updatedTime: 1 })]);
    expect(Object.keys(next).sort()).toEqual(['c1', 'c2']);
    expect(next.c1?.status).toBe('SENT');
    expect(live).not.toBe(next);
  });

  it('ends a COMMANDS subscription with COMMANDS_UNSUBSCRIBE', () => {
    expect(unsubscribeTypeOf('COMMANDS')).toBe('COMMANDS_UNSUBSCRIBE');
  });
});
