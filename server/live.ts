/**
 * What a module contributes to the live websocket /api/ws (docs/ARCHITECTURE.md, "The live host").
 *
 * A module that owns live data lists its command types in its manifest's `live` entry, each a
 * `LiveCommand`; the composition (server/module.ts) collects them into one registry, and the
 * realtime module's sessions look every command up there. The host does what every command needs
 * once: authentication, the schema of the body, the role's permission, the device-data gate, the
 * user's scope over the devices a command names, the subscription limit, replacing a subscription
 * on the same cmdId and unsubscribing. The module's `open` only answers and follows its data.
 *
 * A guest command (`LiveGuestCommand`) is served on a socket without a signed-in user: its body
 * carries its own narrow credential (a share link's token), which only the contributing module
 * checks; such a socket runs guest commands and nothing else, and its credential never opens
 * anything else (server/modules/realtime/ws-session.ts).
 */
import type { TSchema } from 'typebox';
import type { AuthUser } from './core.ts';
import type { ErrorKey } from './contract/errors.ts';
import type { Language } from './contract/languages.ts';
import type { Permission } from './contract/permissions.ts';
import type { WsErrorCode, WsUpdate } from './contract/realtime.ts';
import type { DeviceScope, ScopedDevices } from './lib/device-scope.ts';
import type { EventBus } from './lib/event-bus.ts';

/** What `open` is given: the checked command and who sent it. */
export interface LiveRequest<B> {
  cmdId: number;
  /** The command's body, checked against the command's schema. */
  body: B;
  user: AuthUser;
  lang: Language;
  /** Which devices the user may see (null: every device). */
  scope: DeviceScope;
  /** The device reads within that scope: a device outside it is not found. */
  devices: ScopedDevices;
  /** Sends an answer or an update on the socket (dropped once the socket closed). */
  send(update: WsUpdate): void;
}

/** A running subscription: the host closes it on unsubscribe, on replacement and when the socket closes. */
export interface LiveSubscription {
  /** The devices it follows, for the host's accounting (stats) and scope. */
  readonly deviceIds?: readonly string[];
  close(): void;
}

export interface LiveCommand<B = never> {
  /** Not a guest command: needs a signed-in user. */
  guest?: false;
  /** The body's schema (server/contract/realtime.ts); a body that does not fit is refused with BAD_REQUEST. */
  schema: TSchema;
  /** The `cmdUpdateType` of its answers, which its errors carry too (null: none, as ThingsBoard's bare commands). */
  updateType: string | null;
  /** The permission of its HTTP twin; a role without it is refused (server/contract/permissions.ts). */
  permission?: Permission;
  /** True when it reads device data: refused for a role without device telemetry. */
  deviceData?: boolean;
  /**
   * `subscription`: answers, then follows its data until closed (it counts against the socket's
   * limit and replaces a subscription on the same cmdId). `request`: answers or acts once.
   */
  kind: 'subscription' | 'request';
  /**
   * Answers the command. A subscription returns what the host closes later; `running` is the
   * subscription of this type already on the cmdId, which `open` may change and return instead of
   * a new one (ThingsBoard's ENTITY_DATA `latestCmd` without a query). Throws a `LiveRefusal`, or
   * an AppError (not found), to refuse.
   */
  open(request: LiveRequest<B>, running: LiveSubscription | undefined): LiveSubscription | void;
}

/** What a guest command's `open` is given: no user, no scope; the body's credential is all there is. */
export interface LiveGuestRequest<B> {
  cmdId: number;
  body: B;
  lang: Language;
  /** The client's address, for the module's own rate limits on guessing credentials. */
  ip: string;
  send(update: WsUpdate): void;
  /** Closes the whole socket (the credential was revoked or expired). */
  close(code: number, reason: string): void;
}

/** A subscription served without sign-in on the strength of a credential in its body (see above). */
export interface LiveGuestCommand<B = never> {
  guest: true;
  /** Always a subscription: it follows its data until unsubscribed or the socket closes. */
  kind: 'subscription';
  schema: TSchema;
  updateType: string;
  /** Answers and follows; throws a `LiveRefusal` or an AppError (not found) to refuse. */
  open(request: LiveGuestRequest<B>): LiveSubscription;
}

/** Command types to what serves them: one module's `live` entry, or the whole registry. */
export type LiveCommands = Readonly<Record<string, LiveCommand<never> | LiveGuestCommand<never>>>;

/** Keeps a command's body type for checking and hands the registry its erased form. */
export function liveCommand<B>(command: LiveCommand<B>): LiveCommand<never> {
  return command as unknown as LiveCommand<never>;
}

/** The same for a guest command. */
export function liveGuestCommand<B>(command: LiveGuestCommand<B>): LiveGuestCommand<never> {
  return command as unknown as LiveGuestCommand<never>;
}

/** What a module's `live` entry is built with, besides its services. */
export interface LiveContext {
  /** The module's bus: what it subscribes is unsubscribed when the module closes. */
  bus: EventBus;
  log: { error(obj: object, msg: string): void };
}

/** A command refused with a websocket error code and an i18n key (server/contract/realtime.ts, WsErrorCode). */
export class LiveRefusal extends Error {
  constructor(
    readonly errorCode: WsErrorCode,
    readonly key: ErrorKey,
    readonly params: Record<string, string | number> = {},
  ) {
    super(key);
  }
}
