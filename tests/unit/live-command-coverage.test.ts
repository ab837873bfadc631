/**
 * Every live command type the websocket /api/ws serves has a test through the socket in the test
 * file of the module that owns its data: a command type added without one fails here.
 *
 * The list below is written out by hand while the server has no registry of contributed command
 * types; once the modules contribute them (server/live.ts), the lead switches this test to read
 * the types, and whether each is a subscription or a one-shot request, from that registry.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { unsupportedWsCmdTypes, wsCmdTypes } from '../../server/contract/realtime.ts';

interface LiveCommandTest {
  /** Under tests/integration/. */
  file: string;
  /** A subscription answers, then follows changes until ended; a request answers (or acts) once. */
  kind: 'subscription' | 'request';
  /** The command that ends a subscription, when it is not `<TYPE>_UNSUBSCRIBE`. */
  endedBy?: string;
}

const liveCommandTests: Record<string, LiveCommandTest> = {
  TIMESERIES: { file: 'telemetry-live.test.ts', kind: 'subscription' },
  TIMESERIES_HISTORY: { file: 'telemetry-live.test.ts', kind: 'request' },
  ATTRIBUTES: { file: 'telemetry-live.test.ts', kind: 'subscription' },
  ENTITY_DATA: { file: 'telemetry-live.test.ts', kind: 'subscription' },
  ENTITY_COUNT: { file: 'telemetry-live.test.ts', kind: 'subscription' },
  ALARM_DATA: { file: 'alarm-live.test.ts', kind: 'subscription' },
  ALARM_COUNT: { file: 'alarm-live.test.ts', kind: 'subscription' },
  NOTIFICATIONS: { file: 'notification-live.test.ts', kind: 'subscription' },
  NOTIFICATIONS_COUNT: { file: 'notification-live.test.ts', kind: 'subscription', endedBy: 'NOTIFICATIONS_UNSUBSCRIBE' },
  MARK_NOTIFICATIONS_AS_READ: { file: 'notification-live.test.ts', kind: 'request' },
  MARK_ALL_NOTIFICATIONS_AS_READ: { file: 'notification-live.test.ts', kind: 'request' },
  COMMANDS: { file: 'command-live.test.ts', kind: 'subscription' },
  EDGE_STATE: { file: 'cloud-link-edge-state-live.test.ts', kind: 'subscription' },
};

function testText(file: string): string {
  return readFileSync(fileURLToPath(new URL(`../integration/${file}`, import.meta.url)), 'utf8');
}

describe('live command coverage', () => {
  it('lists every command type of the protocol that the server serves', () => {
    const unsupported = new Set<string>(unsupportedWsCmdTypes);
    const served = wsCmdTypes.filter((type) => type !== 'AUTH' && !type.endsWith('_UNSUBSCRIBE') && !unsupported.has(type));
    expect(Object.keys(liveCommandTests).sort()).toEqual([...served].sort());
  });

  it.each(Object.entries(liveCommandTests))('has a websocket test of %s in its owning module\'s test file', (type, { file, kind, endedBy }) => {
    const text = testText(file);
    expect(text, `${file} sends no ${type}`).toContain(`type: '${type}'`);
    if (kind === 'subscription') expect(text, `${file} never ends a ${type} subscription`).toContain(`type: '${endedBy ?? `${type}_UNSUBSCRIBE`}'`);
  });
});
