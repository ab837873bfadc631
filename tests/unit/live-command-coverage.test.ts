/**
 * Every live command type the websocket /api/ws serves has a test through the socket in the test
 * file of the module that owns its data, `tests/integration/<module>-live.test.ts`: a command type
 * a module contributes without one fails here. The types, their owners and whether each is a
 * subscription or a one-shot request are read from the modules' own `live` entries (server/live.ts).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { edgeModules } from '../../server/app.ts';
import { unsupportedWsCmdTypes, wsCmdTypes } from '../../server/contract/realtime.ts';
import { EventBus } from '../../server/lib/event-bus.ts';
import type { LiveContext } from '../../server/live.ts';

/** Subscriptions ended by another type's end command, as ThingsBoard's protocol has it. */
const endedBy: Record<string, string> = { NOTIFICATIONS_COUNT: 'NOTIFICATIONS_UNSUBSCRIBE' };

interface Served {
  type: string;
  module: string;
  kind: 'subscription' | 'request';
}

/**
 * What every module contributes. A `live` entry only declares its commands and the bus events it
 * follows; it calls no service until a command comes, so none is needed to list them.
 */
function servedCommands(): Served[] {
  const ctx: LiveContext = { bus: new EventBus(), log: { error() {} } };
  return edgeModules.flatMap((m) => Object.entries(m.live?.({}, ctx) ?? {}).map(([type, command]) => ({ type, module: m.name, kind: command.kind })));
}

function testText(module: string): string {
  return readFileSync(fileURLToPath(new URL(`../integration/${module}-live.test.ts`, import.meta.url)), 'utf8');
}

const served = servedCommands();

describe('live command coverage', () => {
  it('serves every command type of the protocol but the unsupported ones', () => {
    const unsupported = new Set<string>(unsupportedWsCmdTypes);
    const protocol = wsCmdTypes.filter((type) => type !== 'AUTH' && !type.endsWith('_UNSUBSCRIBE') && !unsupported.has(type));
    expect(served.map((s) => s.type).sort()).toEqual([...protocol].sort());
  });

  it.each(served.map((s) => [s.type, s] as const))("has a websocket test of %s in its owning module's test file", (type, { module, kind }) => {
    const text = testText(module);
    expect(text, `${module}-live.test.ts sends no ${type}`).toContain(`type: '${type}'`);
    if (kind === 'subscription') expect(text, `${module}-live.test.ts never ends a ${type} subscription`).toContain(`type: '${endedBy[type] ?? `${type}_UNSUBSCRIBE`}'`);
  });
});
