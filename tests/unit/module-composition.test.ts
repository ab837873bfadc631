/**
 * How edge-core modules are composed (server/module.ts): build in list order with needs checked,
 * services found by name, close in reverse order whatever fails, and a module's bus listeners
 * removed when it closes.
 */
import { describe, expect, it } from 'vitest';
import { edgeModules, migrations } from '../../server/app.ts';
import type { Core } from '../../server/core.ts';
import { EventBus } from '../../server/lib/event-bus.ts';
import { Composition, defineModule, migrationsOf, type EdgeModule } from '../../server/module.ts';
import type { LiveCommands } from '../../server/live.ts';
import { Type } from 'typebox';

function recordingLog() {
  const errors: unknown[][] = [];
  const log = { error: (...args: unknown[]) => errors.push(args), warn() {}, info() {}, debug() {}, trace() {}, fatal() {} };
  return { log: log as never, errors };
}

function compose(modules: EdgeModule[], bus = new EventBus()) {
  const { log, errors } = recordingLog();
  const composition = new Composition(modules, { core: { bus } as Core, log, tuning: {} });
  return { composition, errors, bus };
}

/** A module that provides nothing and records its phases. */
function probe(name: string, trail: string[], options: { needs?: never[]; failClose?: boolean } = {}): EdgeModule {
  return defineModule({
    name,
    needs: options.needs ?? [],
    build: () => {
      trail.push(`build ${name}`);
      return {};
    },
    start: () => {
      trail.push(`start ${name}`);
    },
    close: () => {
      trail.push(`close ${name}`);
      if (options.failClose) throw new Error(`${name} cannot close`);
    },
  });
}

describe('module composition', () => {
  it('builds and starts in list order and closes in reverse order, going on past a close that fails', async () => {
    const trail: string[] = [];
    const { composition, errors } = compose([probe('a', trail), probe('b', trail, { failClose: true }), probe('c', trail)]);
    await composition.start();
    await composition.close();
    expect(trail).toEqual(['build a', 'build b', 'build c', 'start a', 'start b', 'start c', 'close c', 'close b', 'close a']);
    expect(errors).toHaveLength(1);
    expect(errors[0]![0]).toMatchObject({ module: 'b' });
  });

  it('refuses a module whose needs no earlier module provides', () => {
    const needy = defineModule({ name: 'needy', needs: ['devices'], build: () => ({}) });
    expect(() => compose([needy])).toThrow(/module needy needs devices/);
  });

  it('refuses two modules that provide the same service', () => {
    const one = defineModule({ name: 'one', needs: [], build: () => ({ cloud: {} as never }) });
    const two = defineModule({ name: 'two', needs: [], build: () => ({ cloud: {} as never }) });
    expect(() => compose([one, two])).toThrow(/module two provides cloud/);
  });

  it('collects the live command types of every module, later modules included, and refuses a type served twice', () => {
    const command = (): LiveCommands => ({ PING: { schema: Type.Object({}), updateType: null, kind: 'request', open: () => undefined } });
    let seen: LiveCommands | null = null;
    const host = defineModule({
      name: 'host',
      needs: [],
      build: ({ liveCommands }) => {
        seen = liveCommands;
        return {};
      },
    });
    const owner = defineModule({ name: 'owner', needs: [], build: () => ({}), live: command });
    compose([host, owner]);
    expect(Object.keys(seen!)).toEqual(['PING']);
    const again = defineModule({ name: 'again', needs: [], build: () => ({}), live: command });
    expect(() => compose([owner, again])).toThrow(/module again serves the live command PING/);
  });

  it('hands a module the services it needs, by name', () => {
    const seen: unknown[] = [];
    const provider = defineModule({ name: 'provider', needs: [], build: () => ({ cloud: { marker: 1 } as never }) });
    const user = defineModule({
      name: 'user',
      needs: ['cloud'],
      build: ({ services }) => {
        seen.push(services.cloud);
        return {};
      },
    });
    const { composition } = compose([provider, user]);
    expect(seen).toEqual([{ marker: 1 }]);
    expect(composition.services.cloud).toEqual({ marker: 1 });
  });

  it("removes a module's event listeners when it closes, and runs what it registered with onClose", async () => {
    const heard: string[] = [];
    const listener = defineModule({
      name: 'listener',
      needs: [],
      build: ({ core, onClose }) => {
        core.bus.on('device.deleted', ({ deviceId }) => heard.push(deviceId));
        onClose(() => {
          heard.push('closed');
        });
        return {};
      },
    });
    const { composition, bus } = compose([listener]);
    bus.emit('device.deleted', { deviceId: 'd1' });
    await composition.close();
    bus.emit('device.deleted', { deviceId: 'd2' });
    expect(heard).toEqual(['d1', 'closed']);
  });

  it('orders every module migration by number and refuses a number used twice', () => {
    expect(migrations.map((m) => m.name)).toEqual([...migrations.map((m) => m.name)].sort());
    const twice = defineModule({ name: 'twice', needs: [], migrations: [{ name: '0005-again', sql: '' }], build: () => ({}) });
    expect(() => migrationsOf([...edgeModules, twice])).toThrow(/migration number 0005 is used twice/);
  });
});

describe('event bus', () => {
  it('delivers an event to every listener even when one throws, and reports the failure', () => {
    const errors: unknown[] = [];
    const bus = new EventBus({ error: (obj: unknown) => errors.push(obj) } as never);
    const heard: string[] = [];
    bus.on('device.deleted', () => heard.push('first'));
    bus.on('device.deleted', () => {
      throw new Error('listener bug');
    });
    bus.on('device.deleted', () => heard.push('third'));
    expect(() => bus.emit('device.deleted', { deviceId: 'd1' })).not.toThrow();
    expect(heard).toEqual(['first', 'third']);
    expect(errors).toEqual([expect.objectContaining({ event: 'device.deleted' })]);
  });

  it('lets a listener unsubscribe itself while the event is delivered', () => {
    const bus = new EventBus();
    const heard: number[] = [];
    const off = bus.on('device.deleted', () => {
      heard.push(1);
      off();
    });
    bus.on('device.deleted', () => heard.push(2));
    bus.emit('device.deleted', { deviceId: 'a' });
    bus.emit('device.deleted', { deviceId: 'b' });
    expect(heard).toEqual([1, 2, 2]);
  });
});
