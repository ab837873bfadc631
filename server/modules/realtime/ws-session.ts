/**
 * One websocket of /api/ws: authentication (query token or first authCmd), the commands of each
 * message, and the socket's subscriptions. Each command is looked up in the registry of live
 * commands the modules contribute (server/live.ts); what every command needs is checked here,
 * once: the role's permission, the device-data gate, the body's schema, that a device the
 * command names is within the user's scope, and the subscription limit. Every failure of a command
 * is answered on its cmdId and leaves the socket open; only authentication problems close it (1008).
 *
 * A socket whose first message holds only guest commands (server/live.ts) becomes a guest socket
 * instead: no user, no scope, guest commands only (each checks its own credential in the module
 * that contributed it), no authCmd later. A share link's token so never signs anyone in.
 */
import type { WebSocket } from 'ws';
import type { AuthUser } from '../../core.ts';
import { ErrorCode, type ErrorKey } from '../../contract/errors.ts';
import {
  UnsubscribeCmdSchema,
  WS_MAX_SUBSCRIPTIONS,
  WS_POLICY_VIOLATION,
  WS_SCOPE_CHANGED,
  WsErrorCode,
  unsupportedWsCmdTypes,
  type ErrorUpdate,
  type WsUpdate,
} from '../../contract/realtime.ts';
import { AppError } from '../../lib/app-error.ts';
import type { Language } from '../../contract/languages.ts';
import { roleHolds } from '../../contract/permissions.ts';
import type { DeviceScope, ScopedDevices } from '../../lib/device-scope.ts';
import { notFound } from '../../lib/field-errors.ts';
import { translate } from '../../lib/messages.ts';
import { hiddenFieldsOf, mentionsSecret, redactSecrets } from '../../lib/redact-secrets.ts';
import { LiveRefusal, type LiveCommand, type LiveCommands, type LiveGuestCommand, type LiveSubscription } from '../../live.ts';
import { scopedUpdate } from './update-scope.ts';
import { parseClientMessage, schemaProblem, type ClientCmd } from './ws-messages.ts';

/** What a session needs from the host that owns every session. */
export interface SessionHost {
  /** Every module's live command types. */
  commands: LiveCommands;
  /** The user behind a token, or why not (a key for the close reason). */
  authenticate(token: string): AuthUser | ErrorKey;
  /** The device reads within the user's scope (organization scoping). */
  devicesFor(user: AuthUser): ScopedDevices;
  /** Registers the session under its user; false when the user has too many sockets. */
  admit(session: WsSession): boolean;
  /** Registers a guest session under its address; false when the address has too many. */
  admitGuest(session: WsSession): boolean;
  /** The token the session holds now, checked again from time to time. */
  authenticated(session: WsSession, token: string): void;
  remove(session: WsSession): void;
  log: { warn(obj: object, msg: string): void; error(obj: object, msg: string): void };
}

/** Close reasons stay short: the protocol allows 123 bytes. */
const closeReasons: Partial<Record<ErrorKey, string>> = {
  'error.auth.required': 'authentication required',
  'error.auth.tokenExpired': 'token expired',
  'error.auth.tokenInvalid': 'invalid token',
  'error.auth.passwordChangeRequired': 'password change required',
  'error.license.required': 'licence required',
  'error.license.expired': 'licence expired',
};

/** The close reason for an authentication refusal. */
export function closeReasonOf(key: ErrorKey): string {
  return closeReasons[key] ?? 'unauthorized';
}

const unsupported = new Set<string>(unsupportedWsCmdTypes);

/** Past this many unsent bytes the client is not reading: drop it rather than buffer without end. */
const MAX_BUFFERED_BYTES = 8 * 1024 * 1024;

/** A running subscription and the command type that opened it. */
interface Running {
  type: string;
  sub: LiveSubscription;
}

/** Who is at the other end before authentication: the request's language and address. */
export interface SessionClient {
  lang: Language;
  ip: string;
}

export class WsSession {
  user: AuthUser | null = null;
  /** A socket of guest commands only (see above); never also a user's. */
  guest = false;
  readonly lang: Language;
  readonly ip: string;
  /** The device reads within this session's user's scope (set with the user). */
  private devices: ScopedDevices | null = null;
  /** The credential fields this session's user may not read (server/contract/secrets.ts). */
  private hidden: ReadonlySet<string> = new Set();
  /** Set by the host's keep-alive: false until the next pong. */
  alive = true;
  private readonly subscriptions = new Map<number, Running>();
  private closed = false;

  constructor(
    readonly socket: WebSocket,
    private readonly host: SessionHost,
    client: SessionClient,
  ) {
    this.lang = client.lang;
    this.ip = client.ip;
  }

  /** Authenticates with the URL's token; false when the socket was closed for it. */
  authenticate(token: string): boolean {
    if (this.guest) {
      this.close(WS_POLICY_VIOLATION, 'guest socket');
      return false;
    }
    const who = this.host.authenticate(token);
    if (typeof who === 'string') {
      this.close(WS_POLICY_VIOLATION, closeReasonOf(who));
      return false;
    }
    if (this.user) {
      // A fresh token of the same user (after a refresh) is welcome; another user is not.
      if (this.user.id !== who.id) {
        this.close(WS_POLICY_VIOLATION, 'another user');
        return false;
      }
    } else {
      this.user = who;
      this.hidden = hiddenFieldsOf(who.role);
      this.devices = this.host.devicesFor(who);
      if (!this.host.admit(this)) {
        this.close(WS_POLICY_VIOLATION, 'too many connections');
        return false;
      }
    }
    this.host.authenticated(this, token);
    return true;
  }

  handle(text: string): void {
    // Frames still in flight after a close must not subscribe anything: nothing would remove it.
    if (this.closed) return;
    const message = parseClientMessage(text);
    if (!this.user && !this.guest && !(message.ok && (message.token || this.becameGuest(message.cmds)))) {
      // Until authenticated only an authCmd, or a first message of guest commands, is listened to.
      if (!this.closed) this.close(WS_POLICY_VIOLATION, 'authentication required');
      return;
    }
    if (!message.ok) {
      this.sendError(0, null, message.errorCode, message.key, message.params);
      return;
    }
    if (message.token && !this.authenticate(message.token)) return;
    for (const cmd of message.cmds) {
      if (this.closed) return;
      try {
        this.run(cmd);
      } catch (err) {
        this.failed(cmd, err);
      }
    }
  }

  send(update: WsUpdate): void {
    if (this.closed || this.socket.readyState !== this.socket.OPEN) return;
    if (this.socket.bufferedAmount > MAX_BUFFERED_BYTES) {
      this.close(1013, 'too slow');
      return;
    }
    let text = JSON.stringify(update);
    // Credentials in an answer (an edge key, a DTU's registration) only for a role that reads them.
    if (this.hidden.size && mentionsSecret(text)) text = JSON.stringify(redactSecrets(update, this.hidden));
    this.socket.send(text);
  }

  close(code: number, reason: string): void {
    if (this.closed) return;
    this.closed = true;
    this.socket.close(code, reason);
    this.dispose();
  }

  /**
   * Called when the user's memberships or the organization tree changed: a socket whose scope is
   * no longer the one its subscriptions were opened with is closed at once (WS_SCOPE_CHANGED), and
   * the client subscribes again under the new scope.
   */
  rescope(): void {
    if (!this.user || this.closed) return;
    const next = this.host.devicesFor(this.user);
    if (sameScope(this.devices!.scope, next.scope)) return;
    this.close(WS_SCOPE_CHANGED, 'scope changed');
  }

  /** A first message of guest commands (and nothing else) makes this a guest socket, if its address may have another. */
  private becameGuest(cmds: readonly ClientCmd[]): boolean {
    const guestCmds = cmds.filter((cmd) => this.guestCommand(cmd.type));
    if (!guestCmds.length || guestCmds.length !== cmds.length) return false;
    if (!this.host.admitGuest(this)) {
      this.close(WS_POLICY_VIOLATION, 'too many connections');
      return false;
    }
    this.guest = true;
    return true;
  }

  private guestCommand(type: string): LiveGuestCommand<never> | undefined {
    const command = Object.hasOwn(this.host.commands, type) ? this.host.commands[type] : undefined;
    return command?.guest === true ? command : undefined;
  }

  /** Drops every subscription; called once the socket closes, however it closed. */
  dispose(): void {
    this.closed = true;
    for (const { sub } of this.subscriptions.values()) sub.close();
    this.subscriptions.clear();
    this.host.remove(this);
  }

  get subscriptionCount(): number {
    return this.subscriptions.size;
  }

  /** The devices this session's subscriptions follow. */
  followedDevices(): string[] {
    return [...this.subscriptions.values()].flatMap(({ sub }) => sub.deviceIds ?? []);
  }

  private run(cmd: ClientCmd): void {
    const type = cmd.type;
    const unsubscribeFlag = cmd.body.unsubscribe === true;
    if (type.endsWith('_UNSUBSCRIBE') || ((type === 'TIMESERIES' || type === 'ATTRIBUTES') && unsubscribeFlag)) {
      this.check(cmd, UnsubscribeCmdSchema);
      this.drop(cmd.cmdId);
      return;
    }
    // Handled with the message; a bare AUTH command has nothing more to do.
    if (type === 'AUTH') return;
    const command = Object.hasOwn(this.host.commands, type) ? this.host.commands[type] : undefined;
    // Guest commands only on a guest socket, and only they there: neither side borrows the other's credential.
    if (!command || (command.guest === true) !== this.guest) {
      if (this.guest) throw new LiveRefusal(WsErrorCode.UNAUTHORIZED, 'error.auth.required', {});
      if (unsupported.has(type)) throw new LiveRefusal(WsErrorCode.BAD_REQUEST, 'error.ws.unsupported', { type });
      throw new LiveRefusal(WsErrorCode.BAD_REQUEST, 'error.ws.unknownCmd', { type: type || '(none)' });
    }
    if (command.guest === true) {
      this.openGuest(cmd, command);
      return;
    }
    const user = this.user!;
    // The permission of the command's HTTP twin, and device data only for a role that reads device telemetry.
    if (command.permission && !roleHolds(user.role, command.permission)) throw denied();
    if (command.deviceData && !roleHolds(user.role, 'device:telemetry')) throw denied();
    const body = this.check(cmd, command.schema);
    const devices = this.devices!;
    // A device the command names is within the user's scope, or it is answered as one that does not
    // exist (the ids of an `entityList` are filtered by the module, through the same device reads).
    const named = entityIdOf(body);
    if (named && !devices.exists(named)) throw notFound();
    this.open(cmd, command, body, devices);
  }

  private open(cmd: ClientCmd, command: LiveCommand<never>, body: Record<string, unknown>, devices: ScopedDevices): void {
    const existing = this.subscriptions.get(cmd.cmdId);
    const running = existing?.type === cmd.type ? existing.sub : undefined;
    if (command.kind === 'subscription') this.checkLimit(cmd.cmdId);
    const request = {
      cmdId: cmd.cmdId,
      body: body as never,
      user: this.user!,
      lang: this.lang,
      scope: devices.scope,
      devices,
      // Every answer, the first and each later one, passes the scope as it is when it goes out.
      send: (update: WsUpdate) => {
        const scoped = scopedUpdate(update, devices, typeof body.entityId === 'string' ? body.entityId : undefined);
        if (scoped) this.send(scoped);
      },
    };
    const sub = command.open(request, running);
    if (command.kind !== 'subscription' || !sub || sub === running) return;
    // A command with a cmdId already in use replaces that subscription, as in ThingsBoard.
    this.drop(cmd.cmdId);
    this.subscriptions.set(cmd.cmdId, { type: cmd.type, sub });
  }

  private openGuest(cmd: ClientCmd, command: LiveGuestCommand<never>): void {
    const body = this.check(cmd, command.schema);
    this.checkLimit(cmd.cmdId);
    const sub = command.open({
      cmdId: cmd.cmdId,
      body: body as never,
      lang: this.lang,
      ip: this.ip,
      send: (update) => this.send(update),
      close: (code, reason) => this.close(code, reason),
    });
    this.drop(cmd.cmdId);
    if (this.closed) sub.close();
    else this.subscriptions.set(cmd.cmdId, { type: cmd.type, sub });
  }

  /** A new subscription (not one replacing its cmdId's) past the socket's limit is refused. */
  private checkLimit(cmdId: number): void {
    if (!this.subscriptions.has(cmdId) && this.subscriptions.size >= WS_MAX_SUBSCRIPTIONS) {
      throw new LiveRefusal(WsErrorCode.LIMIT_EXCEEDED, 'error.ws.subscriptionLimit', { max: WS_MAX_SUBSCRIPTIONS });
    }
  }

  private check(cmd: ClientCmd, schema: Parameters<typeof schemaProblem>[0]): Record<string, unknown> {
    const problem = schemaProblem(schema, cmd.body);
    if (problem) throw new LiveRefusal(WsErrorCode.BAD_REQUEST, 'error.ws.badCmd', { type: cmd.type, reason: problem });
    return cmd.body;
  }

  private drop(cmdId: number): void {
    const running = this.subscriptions.get(cmdId);
    if (!running) return;
    running.sub.close();
    this.subscriptions.delete(cmdId);
  }

  private failed(cmd: ClientCmd, err: unknown): void {
    if (err instanceof LiveRefusal) {
      this.sendError(cmd.cmdId, cmd.type, err.errorCode, err.key, err.params);
    } else if (err instanceof AppError) {
      const code = err.code === ErrorCode.ITEM_NOT_FOUND ? WsErrorCode.NOT_FOUND : err.statusCode < 500 ? WsErrorCode.BAD_REQUEST : WsErrorCode.INTERNAL_ERROR;
      const key = err.code === ErrorCode.ITEM_NOT_FOUND ? 'error.ws.entityNotFound' : err.key;
      this.sendError(cmd.cmdId, cmd.type, code, key, { ...err.params, id: entityIdOf(cmd.body) });
    } else {
      this.host.log.error({ err, type: cmd.type }, 'websocket command failed');
      this.sendError(cmd.cmdId, cmd.type, WsErrorCode.INTERNAL_ERROR, 'error.ws.internal', {});
    }
  }

  private sendError(cmdId: number, type: string | null, errorCode: WsErrorCode, key: ErrorKey, params: Record<string, string | number>): void {
    const update: ErrorUpdate = {
      cmdId,
      subscriptionId: cmdId,
      errorCode,
      errorMsg: translate(this.lang, key, params),
      data: null,
      cmdUpdateType: (type && Object.hasOwn(this.host.commands, type) && this.host.commands[type]!.updateType) || null,
    };
    this.send(update);
  }
}

/** The device a command names, for error texts. */
function entityIdOf(body: Record<string, unknown>): string {
  if (typeof body.entityId === 'string') return body.entityId;
  const filter = (body.query as { entityFilter?: { singleEntity?: { id?: unknown } } } | undefined)?.entityFilter;
  return typeof filter?.singleEntity?.id === 'string' ? filter.singleEntity.id : '';
}

/** A command refused for the user's role. */
function denied(): LiveRefusal {
  return new LiveRefusal(WsErrorCode.UNAUTHORIZED, 'error.permissionDenied', {});
}

/** Whether two scopes let the same devices through. */
function sameScope(a: DeviceScope, b: DeviceScope): boolean {
  if (a === null || b === null) return a === b;
  const before = new Set(a.organizationIds);
  return before.size === new Set(b.organizationIds).size && b.organizationIds.every((id) => before.has(id));
}
