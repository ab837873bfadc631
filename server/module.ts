/**
 * The shape of an embedded edge-core module and the code that composes them (docs/ARCHITECTURE.md,
 * "A module").
 *
 * A module is one `defineModule({...})` manifest: its name, the services it needs from modules
 * listed before it, what it contributes to lists that used to be central (migrations, OpenAPI tag
 * descriptions, the live websocket's command types: server/live.ts), and four phases that
 * `server/app.ts` runs for every module in list order:
 * `build` (construct services, no I/O beyond the database), `routes` (HTTP), `start` (open ports,
 * timers) and, in reverse order, `close`.
 *
 * Services are found by name. A module adds the names it provides to `Services` with declaration
 * merging, next to its manifest, so the shared context is typed from what modules provide and no
 * central interface is edited:
 *
 *     declare module '../../module.ts' {
 *       interface Services { commands: CommandService }
 *     }
 */
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Core } from './core.ts';
import type { EventBus } from './lib/event-bus.ts';
import type { LiveCommands, LiveContext } from './live.ts';

/** Every service a module provides, by name; filled in by each module's `declare module`. */
export interface Services {}

export type ServiceName = keyof Services;

/** A forward-only SQL migration; `name` starts with a number unique across all modules. */
export interface Migration {
  name: string;
  sql: string;
}

/** Transport and telemetry timings that tests shorten; modules read their own part. */
export interface Tuning {}

/** What `build` receives: the core (with a bus whose listeners end with the module), a logger, the tuning and the services it needs. */
export interface BuildContext<N extends ServiceName> {
  core: Core;
  log: FastifyBaseLogger;
  tuning: Tuning;
  services: Pick<Services, N>;
  /** Runs `fn` when the module closes (after its `close`): for what it built but does not provide, e.g. a timer. */
  onClose: (fn: () => Promise<void> | void) => void;
  /**
   * Every module's live command types (their `live` entries), for the module that serves the
   * websocket. Filled as modules are built: read it when a command comes, not during `build`.
   */
  liveCommands: LiveCommands;
}

/** What `routes`, `start` and `close` receive: the needed services and the ones the module built. */
export type ModuleScope<N extends ServiceName, P> = Pick<Services, N> & P;

export interface ModuleManifest<N extends ServiceName, P extends Partial<Services>> {
  name: string;
  /** Services of modules listed earlier; composing fails at start-up when one is missing. */
  needs: readonly N[];
  migrations?: readonly Migration[];
  /** Descriptions of the OpenAPI tags its contract routes use. */
  apiTags?: Readonly<Record<string, string>>;
  build(ctx: BuildContext<N>): P;
  /** The live websocket's command types whose data this module owns (server/live.ts), built after `build`. */
  live?(scope: ModuleScope<N, P>, ctx: LiveContext): LiveCommands;
  routes?(app: FastifyInstance, scope: ModuleScope<N, P>): Promise<void> | void;
  start?(scope: ModuleScope<N, P>): Promise<void> | void;
  close?(scope: ModuleScope<N, P>): Promise<void> | void;
}

/** A manifest with its service types erased, as the composer handles it. */
export interface EdgeModule {
  readonly name: string;
  readonly needs: readonly ServiceName[];
  readonly migrations: readonly Migration[];
  readonly apiTags: Readonly<Record<string, string>>;
  build(ctx: BuildContext<ServiceName>): Partial<Services>;
  live?(scope: Partial<Services>, ctx: LiveContext): LiveCommands;
  routes?(app: FastifyInstance, scope: Partial<Services>): Promise<void> | void;
  start?(scope: Partial<Services>): Promise<void> | void;
  close?(scope: Partial<Services>): Promise<void> | void;
}

/** Keeps the manifest's literal types for checking, and hands the composer its erased form. */
export function defineModule<const N extends ServiceName, P extends Partial<Services>>(manifest: ModuleManifest<N, P>): EdgeModule {
  return { migrations: [], apiTags: {}, ...manifest } as unknown as EdgeModule;
}

/** Every migration the modules contribute, in the order of their numbers. */
export function migrationsOf(modules: readonly EdgeModule[]): Migration[] {
  const all = modules.flatMap((m) => m.migrations);
  const seen = new Set<string>();
  for (const m of all) {
    const number = m.name.split('-')[0]!;
    if (seen.has(number)) throw new Error(`migration number ${number} is used twice (${m.name})`);
    seen.add(number);
  }
  // Code-unit order, not localeCompare: the names start with their fixed-width numbers, and a
  // collator would page ICU's collation data into every start for this one sort.
  return all.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** One module as composed: its manifest, the services in its scope, and the bus its listeners joined. */
interface Composed {
  module: EdgeModule;
  scope: Partial<Services>;
  bus: ScopedBus;
  closers: (() => Promise<void> | void)[];
}

/** The event bus as one module sees it: what it subscribes is unsubscribed when the module closes. */
class ScopedBus {
  private readonly offs: (() => void)[] = [];
  constructor(private readonly bus: EventBus) {}
  readonly on: EventBus['on'] = (event, listener) => {
    const off = this.bus.on(event, listener);
    this.offs.push(off);
    return off;
  };
  readonly emit: EventBus['emit'] = (event, payload) => this.bus.emit(event, payload);
  dispose(): void {
    for (const off of this.offs.splice(0)) off();
  }
}

/**
 * The modules after `build`: every service by name, and the phases still to run. Modules are built
 * in list order; a module whose `needs` names a service no earlier module provided stops the start.
 */
export class Composition {
  readonly services: Partial<Services> = {};
  /** Every module's live command types; a type two modules contribute stops the start. */
  readonly liveCommands: Record<string, LiveCommands[string]> = {};
  private readonly composed: Composed[] = [];

  constructor(
    modules: readonly EdgeModule[],
    private readonly ctx: { core: Core; log: FastifyBaseLogger; tuning: Tuning },
  ) {
    for (const module of modules) {
      const missing = module.needs.filter((name) => !(name in this.services));
      if (missing.length) throw new Error(`module ${module.name} needs ${missing.join(', ')}, which no module before it provides`);
      const needed = Object.fromEntries(module.needs.map((name) => [name, this.services[name]])) as Pick<Services, ServiceName>;
      const bus = new ScopedBus(ctx.core.bus);
      const core: Core = { ...ctx.core, bus: bus as unknown as EventBus };
      const closers: Composed['closers'] = [];
      const provided = module.build({
        core,
        log: ctx.log,
        tuning: ctx.tuning,
        services: needed,
        onClose: (fn) => closers.push(fn),
        liveCommands: this.liveCommands,
      });
      for (const name of Object.keys(provided)) {
        if (name in this.services) throw new Error(`module ${module.name} provides ${name}, which another module already provides`);
      }
      Object.assign(this.services, provided);
      const scope = { ...needed, ...provided };
      this.composed.push({ module, scope, bus, closers });
      if (module.live) this.addLive(module.name, module.live(scope, { bus: bus as unknown as EventBus, log: ctx.log }));
    }
  }

  private addLive(moduleName: string, commands: LiveCommands): void {
    for (const [type, command] of Object.entries(commands)) {
      if (type in this.liveCommands) throw new Error(`module ${moduleName} serves the live command ${type}, which another module already serves`);
      this.liveCommands[type] = command;
    }
  }

  /** OpenAPI tag descriptions of every module. */
  apiTags(): Record<string, string> {
    return Object.assign({}, ...this.composed.map((c) => c.module.apiTags)) as Record<string, string>;
  }

  async registerRoutes(app: FastifyInstance): Promise<void> {
    for (const { module, scope } of this.composed) {
      if (module.routes) await app.register(async (scoped) => module.routes!(scoped, scope));
    }
  }

  async start(): Promise<void> {
    for (const { module, scope } of this.composed) await module.start?.(scope);
  }

  /** Closes in reverse order, each awaited; a failing close is logged and the others still run. */
  async close(): Promise<void> {
    for (const { module, scope, bus, closers } of [...this.composed].reverse()) {
      for (const close of [() => module.close?.(scope), ...closers]) {
        try {
          await close();
        } catch (err) {
          this.ctx.log.error({ err, module: module.name }, 'module close failed');
        }
      }
      bus.dispose();
    }
  }
}
