/**
 * The device MQTT server (server/contract/device-api.ts): MQTT 3.1, 3.1.1 and 5 on one port (and
 * on the TLS port), built on the mqtt-packet codec rather than a general broker, as ThingsBoard
 * builds its transport on a codec: devices never talk to each other here, every publish ends in
 * the gateway and every server message goes to one device. This file holds what a connection
 * means (authentication, sessions, topics, messages); mqtt-connection.ts holds the socket's state
 * machine, mqtt-sessions.ts the sessions, mqtt-reason-codes.ts the codes sent.
 *
 * - CONNECT: authenticated a slice per turn of the event loop (sliced-queue.ts), so that a site
 *   reconnecting at once does not hold the console's requests behind thousands of CONNECTs.
 *   The credentials module authenticates (ACCESS_TOKEN user name, or MQTT_BASIC; over TLS
 *   a client certificate, see mqtt-tls.ts); anyone else is refused (3.1.1 CONNACK 5; MQTT 5 0x86
 *   bad user name or password, 0x87 for an unknown certificate). User name `provision` opens a
 *   device provisioning connection (ThingsBoard's MQTT
 *   provisioning: `/provision/request` in, `/provision/response` out). Refusals, unsupported
 *   protocol versions included, are counted and logged at info, one line per source a minute.
 * - PUBLISH: only the device's own topics (topic-acl.ts), handled by device-dispatch.ts (telemetry
 *   by the callback path to the commit). The PUBACK (PUBREC for QoS 2) goes out once the batch
 *   holding the message is committed, so an acknowledged message survives a crash; a message that
 *   could not be stored gets none and closes the connection. A refused message is acknowledged all
 *   the same (resending it would not make it acceptable); MQTT 5 says why in the PUBACK's reason.
 *   A topic the device may not publish closes a 3.1.1 connection, and gets PUBACK 0x87 under 5.
 * - Sessions belong to devices, keyed `{deviceId}/{clientId}` (mqtt-sessions.ts): a new CONNECT
 *   with the same key takes the old connection over; a persistent session keeps its
 *   subscriptions and unacknowledged server messages, which are resent (DUP) on reconnect and
 *   still mark their RPC DELIVERED when acknowledged.
 * - A last will tells of a device that went away unexpectedly: it is handled as a message of that
 *   device on its topic (same ACL, same dispatch). Connections the server ends itself (credentials
 *   replaced, device deleted, shutdown) have their will dropped; an MQTT 5 DISCONNECT 0x04 asks for
 *   it to be published. Retain is ignored: nothing is routed between devices.
 */
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type Server, type Socket } from 'node:net';
import { createServer as createTlsServer, type Server as TlsServer } from 'node:tls';
import type { FastifyBaseLogger } from 'fastify';
import type { IConnackPacket, IConnectPacket, IPublishPacket, ISubscribePacket, IUnsubscribePacket } from 'mqtt-packet';
import { MQTT_INFLIGHT_MAX } from '../../contract/device-api.ts';
import { PROVISION_MQTT_USER_NAME, provisionTopics } from '../../contract/provisioning.ts';
import type { CredentialsService } from '../device/credentials-service.ts';
import { PayloadRefusal } from '../../lib/device-payload.ts';
import { DiskFullRefusal } from '../../lib/disk-full.ts';
import { DatabaseLostRefusal } from '../../lib/database-file-watch.ts';
import type { DeviceDispatch } from './device-dispatch.ts';
import { connectedDeviceOf, type ConnectedDevice, type DeviceMessages } from './device-messages.ts';
import type { DeviceStateTracker } from './device-state.ts';
import { guardFrames } from './frame-guard.ts';
import { MqttConnection, type MqttConnectionHost } from './mqtt-connection.ts';
import { ConnackV3, Reason, refusalReason, SUBACK_FAILURE_V3 } from './mqtt-reason-codes.ts';
import { MqttSession, MqttSessionStore, SESSION_EXPIRY_MAX_S } from './mqtt-sessions.ts';
import { clientCertificate, tlsServerOptions, type TlsIdentity } from './mqtt-tls.ts';
import { filterOf, type HeldMessage, type RpcRef } from './rpc-delivery.ts';
import { SlicedQueue } from './sliced-queue.ts';
import type { PackageChunks, PackageFailure } from './package-chunks.ts';
import { longTopicOf, packageErrorTopic, packageRequest, packageResponseTopic, shortTopicOf, type PackageRequest } from './short-topics.ts';
import { publishKind, subscribeAllowed } from './topic-acl.ts';
import type { TransportStats } from './transport-stats.ts';

/** A packet announcing more than this closes its connection before it is buffered. */
export const MQTT_FRAME_MAX_BYTES = 1024 * 1024;
/** Longer client IDs are refused: every session keeps its ID in memory. */
export const MQTT_CLIENT_ID_MAX = 256;
/**
 * Connections the kernel may hold completed for the broker to accept (capped by the kernel's
 * somaxconn). Node's default, 511, is far below a site reconnecting at once after a restart: the
 * SYNs beyond it are dropped and the devices retry after 1, 3, 7, 15 s, so that with 10,000 devices
 * many still had no CONNACK after 30 s while the gateway idled (scripts/lib/bench-scale.ts).
 */
const ACCEPT_BACKLOG = 16_384;
/** Deadlines (CONNECT, keepalive) are checked this often. */
const SWEEP_MS = 1000;
/**
 * CONNECTs authenticated per turn of the event loop, and the time a turn may spend on them: with
 * 10,000 devices reconnecting at once the console's device list stayed under 50 ms and every
 * device had its CONNACK within a few seconds (scripts/lib/bench-scale.ts).
 */
const CONNECT_SLICE_MAX = 64;
const CONNECT_SLICE_MS = 4;

export interface MqttBrokerDeps {
  credentials: Pick<CredentialsService, 'authenticate' | 'authenticateX509'>;
  messages: DeviceMessages;
  dispatch: DeviceDispatch;
  state: DeviceStateTracker;
  stats: TransportStats;
  log: FastifyBaseLogger;
  /** Answers a device provisioning request (its JSON body) from `address` (failed attempts are counted per address). */
  provision: (request: Buffer, address: string) => Promise<unknown>;
  /** Firmware chunks of the packages assigned to devices. */
  packages: PackageChunks;
}

/**
 * Where a server message on v1 `topic` goes in `session`: the v1 topic when the session subscribed
 * its filter, else its short form when it subscribed that (short-topics.ts); `granted` null when
 * neither. A short topic (an answer to a short request) stays short.
 */
function routeOf(session: MqttSession, topic: string): { topic: string; granted: 0 | 1 | null } {
  const long = longTopicOf(topic);
  if (long !== null) return { topic, granted: session.subscribedQos(shortTopicOf(filterOf(long)) ?? topic) };
  const filter = filterOf(topic);
  const granted = session.subscribedQos(filter);
  if (granted !== null) return { topic, granted };
  const short = shortTopicOf(filter);
  const shortGranted = short === null ? null : session.subscribedQos(short);
  return shortGranted === null ? { topic, granted: null } : { topic: shortTopicOf(topic)!, granted: shortGranted };
}

/** What the CONNACK of an MQTT 5 connection tells the client about this server. */
function connackProperties(assignedClientIdentifier: string | null, sessionExpiryInterval: number | null): IConnackPacket['properties'] {
  return {
    receiveMaximum: MQTT_INFLIGHT_MAX,
    maximumPacketSize: MQTT_FRAME_MAX_BYTES,
    topicAliasMaximum: 0,
    retainAvailable: false,
    // Only the ACL's filters are served; `+` in them is a wildcard to the client.
    wildcardSubscriptionAvailable: true,
    sharedSubscriptionAvailable: false,
    subscriptionIdentifiersAvailable: false,
    ...(assignedClientIdentifier !== null ? { assignedClientIdentifier } : {}),
    ...(sessionExpiryInterval !== null ? { sessionExpiryInterval } : {}),
  };
}

export class MqttBroker implements MqttConnectionHost {
  private readonly sessions = new MqttSessionStore();
  /** Open connections of each device. */
  private readonly online = new Map<string, Set<MqttConnection>>();
  private readonly connections = new Set<MqttConnection>();
  private readonly clock = { now: Date.now() };
  private readonly connects = new SlicedQueue<{ conn: MqttConnection; packet: IConnectPacket }>(({ conn, packet }) => this.startAuthentication(conn, packet), CONNECT_SLICE_MAX, CONNECT_SLICE_MS);
  /** Accepted connections whose CONNACK waits, corked, until the device states of their turn are stored. */
  private corked: Socket[] = [];
  private sweeper: NodeJS.Timeout | null = null;
  private server: Server | null = null;
  private tlsServer: TlsServer | null = null;
  /** The bound port (the configured one, or the ephemeral one for port 0). */
  port = 0;
  /** The bound MQTT over TLS port, or null while it is not listening. */
  tlsPort: number | null = null;

  constructor(private readonly deps: MqttBrokerDeps) {}

  async start(host: string, port: number): Promise<void> {
    const server = createServer({ noDelay: true }, (socket) => this.accept(socket));
    server.on('error', (err) => this.deps.log.error({ err }, 'MQTT server error'));
    server.listen({ port, host, backlog: ACCEPT_BACKLOG });
    await once(server, 'listening');
    this.server = server;
    this.port = (server.address() as { port: number }).port;
    this.sweeper = setInterval(() => this.sweep(), SWEEP_MS).unref();
  }

  /** Opens the MQTT over TLS port (after `start`): same server, same limits, `identity`'s certificate. */
  async listenTls(host: string, port: number, identity: TlsIdentity): Promise<void> {
    if (!this.server) throw new Error('the broker is not started');
    const { log, stats } = this.deps;
    const server = createTlsServer({ ...tlsServerOptions(identity), noDelay: true }, (socket) => this.accept(socket));
    // Plain MQTT, a wrong protocol version or a stalled handshake: the socket is closed, the port keeps serving.
    server.on('tlsClientError', (err: Error, socket: Socket) => {
      const suppressed = stats.refuse('tlsHandshake', socket.remoteAddress);
      if (suppressed !== null) log.info({ remote: socket.remoteAddress, err: err.message, suppressed }, 'MQTT over TLS handshake failed');
    });
    server.on('error', (err) => log.error({ err }, 'MQTT over TLS server error'));
    server.listen({ port, host, backlog: ACCEPT_BACKLOG });
    await once(server, 'listening');
    this.tlsServer = server;
    this.tlsPort = (server.address() as { port: number }).port;
  }

  /** Ends every connection (MQTT 5: DISCONNECT 0x8B; wills dropped), forgets the sessions, closes the ports. */
  async close(): Promise<void> {
    const { server, tlsServer } = this;
    this.server = null;
    this.tlsServer = null;
    if (this.sweeper) clearInterval(this.sweeper);
    this.connects.clear();
    for (const conn of [...this.connections]) conn.end(Reason.serverShuttingDown, true);
    this.sessions.clear();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
    if (tlsServer) await new Promise<void>((resolve) => tlsServer.close(() => resolve()));
  }

  isConnected(deviceId: string): boolean {
    return (this.online.get(deviceId)?.size ?? 0) > 0;
  }

  /**
   * Sends a server message to every open session of `deviceId`, or once that session subscribes to
   * the topic; `rpc` names the request it carries (DELIVERED on its PUBACK). False when the device
   * has no open session.
   */
  publishTo(deviceId: string, topic: string, body: unknown, qos: 0 | 1, rpc: RpcRef | null = null): boolean {
    const conns = this.online.get(deviceId);
    if (!conns?.size) return false;
    const message: HeldMessage = { topic, payload: Buffer.from(JSON.stringify(body)), qos, rpc };
    for (const conn of conns) this.deliver(conn, message);
    return true;
  }

  /** Closes every connection of `deviceId` (credentials replaced): MQTT 5 hears 0x87; wills are dropped. */
  disconnect(deviceId: string): void {
    for (const conn of [...(this.online.get(deviceId) ?? [])]) conn.end(Reason.notAuthorized, true);
  }

  /** A deleted device: its connections close and its sessions leave memory. */
  forget(deviceId: string): void {
    this.disconnect(deviceId);
    this.sessions.dropDevice(deviceId);
  }

  /** The device changed (type, product, gateway): its open connections see the new one. */
  refresh(deviceId: string, device: ConnectedDevice): void {
    for (const conn of this.online.get(deviceId) ?? []) conn.device = device;
  }

  /** Sessions held in memory (connected or waiting to be resumed). */
  get sessionCount(): number {
    return this.sessions.size;
  }

  // ------------------------------------------------------------------ MqttConnectionHost

  connect(conn: MqttConnection, packet: IConnectPacket): void {
    this.connects.push({ conn, packet });
  }

  private startAuthentication(conn: MqttConnection, packet: IConnectPacket): void {
    // Closed while it waited for its turn.
    if (conn.phase !== 'authenticating') return;
    this.authenticate(conn, packet).catch((err: unknown) => {
      this.deps.log.error({ err }, 'MQTT authentication failed');
      conn.refuse(conn.version === 5 ? Reason.unspecified : ConnackV3.notAuthorized);
    });
  }

  unsupportedVersion(conn: MqttConnection, version: number): void {
    this.refused('protocolVersion', conn.remoteAddress, { version }, 'MQTT connection refused: unsupported protocol version');
    // A version past 5 is told in MQTT 5's terms, an older one in 3.1.1's (MQTT 5 section 3.1.2.2).
    conn.writer.version = version > 5 ? 5 : 4;
    conn.refuse(version > 5 ? Reason.unsupportedProtocolVersion : ConnackV3.unacceptableProtocol);
  }

  publish(conn: MqttConnection, packet: IPublishPacket, settle: (reason: number | null) => void): void {
    const payload = typeof packet.payload === 'string' ? Buffer.from(packet.payload) : packet.payload;
    const device = conn.device;
    if (!device) {
      this.provisionRequest(conn, packet.topic, payload, settle);
      return;
    }
    const chunkRequest = packageRequest(packet.topic);
    if (chunkRequest) {
      this.packageChunk(conn, device, chunkRequest, payload, settle);
      return;
    }
    if (!this.handle(conn, device, packet.topic, payload, settle)) {
      const v5 = conn.version === 5;
      this.refused('topic', device.id, { topic: packet.topic }, v5 ? 'MQTT publish on a topic the device may not use: refused' : 'MQTT publish on a topic the device may not use: connection closed', 'warn');
      settle(v5 ? Reason.notAuthorized : null);
    }
  }

  subscribe(conn: MqttConnection, packet: ISubscribePacket): void {
    const session = conn.session!;
    const granted = packet.subscriptions.map(({ topic, qos }) => {
      const allowed = conn.device ? subscribeAllowed(topic, conn.device.deviceType) : topic === provisionTopics.response;
      if (!allowed) {
        this.refused('subscription', conn.device?.id ?? PROVISION_MQTT_USER_NAME, { topic }, 'MQTT subscription refused');
        return conn.version === 5 ? Reason.notAuthorized : SUBACK_FAILURE_V3;
      }
      const q = qos > 0 ? 1 : 0;
      session.subscriptions.set(topic, q);
      return q;
    });
    conn.writer.suback(packet.messageId!, granted);
    // Server messages wait for the subscription to their topic (rpc-delivery.ts), held under the v1 filter.
    for (const { topic } of packet.subscriptions) {
      if (session.subscriptions.has(topic)) for (const m of session.delivery.release(longTopicOf(topic) ?? topic)) this.send(conn, m);
    }
  }

  unsubscribe(conn: MqttConnection, packet: IUnsubscribePacket): void {
    for (const filter of packet.unsubscriptions) conn.session?.subscriptions.delete(filter);
    conn.writer.unsuback(packet.messageId!, packet.unsubscriptions.length);
  }

  acknowledged(conn: MqttConnection, messageId: number): void {
    const rpc = conn.session?.delivery.acked(messageId);
    if (rpc) this.deps.messages.rpcDelivered(rpc.deviceId, rpc.requestId);
  }

  closed(conn: MqttConnection): void {
    this.connections.delete(conn);
    const { session, device } = conn;
    if (session && session.attached === conn) {
      if (device) this.sessions.detach(session);
      else session.attached = null;
    }
    if (!device) return;
    const conns = this.online.get(device.id);
    if (conns?.delete(conn)) {
      if (conns.size === 0) this.online.delete(device.id);
      this.deps.state.mqttClosed(device.id);
      if (device.deviceType === 'GATEWAY' && !this.isConnected(device.id)) this.deps.state.gatewayGone(device.id);
    }
    if (conn.willDue) this.publishWill(conn, device);
  }

  // ------------------------------------------------------------------ internals

  /** A new connection, plain or TLS (once its handshake is done). */
  private accept(socket: Socket): void {
    const { log, stats } = this.deps;
    let conn: MqttConnection | null = null;
    // Before the connection's own reader: an oversized frame is caught before it is parsed.
    guardFrames(socket, MQTT_FRAME_MAX_BYTES, (announced) => {
      const suppressed = stats.refuse('frameTooLarge', socket.remoteAddress);
      if (suppressed !== null) log.warn({ remote: socket.remoteAddress, announced, suppressed }, 'MQTT packet over 1 MB: connection closed');
      conn?.end(Reason.packetTooLarge, false);
    });
    // The coarse clock may be a second or more behind after a busy turn (a reconnect storm): a
    // connection opened then would look older than it is and be closed before its CONNECT is read.
    this.clock.now = Date.now();
    conn = new MqttConnection(socket, this, this.clock);
    this.connections.add(conn);
  }

  private sweep(): void {
    const now = Date.now();
    this.clock.now = now;
    for (const conn of this.connections) conn.tick(now);
  }

  private async authenticate(conn: MqttConnection, packet: IConnectPacket): Promise<void> {
    const v5 = conn.version === 5;
    const cleanStart = packet.clean !== false;
    let clientId = packet.clientId ?? '';
    if (clientId.length > MQTT_CLIENT_ID_MAX || (clientId === '' && !cleanStart && !v5)) {
      this.refused('clientId', conn.remoteAddress, { length: clientId.length }, 'MQTT connection refused: client identifier not valid');
      conn.refuse(v5 ? Reason.clientIdentifierNotValid : ConnackV3.identifierRejected);
      return;
    }
    const certificate = clientCertificate(conn.socket);
    if (certificate === null && packet.username === PROVISION_MQTT_USER_NAME) {
      this.openProvisioning(conn, clientId);
      return;
    }
    // A client certificate decides alone (ThingsBoard's X.509 credentials): its user name may be empty.
    const found =
      certificate !== null
        ? this.deps.credentials.authenticateX509(certificate)
        : await this.deps.credentials.authenticate({ username: packet.username, password: packet.password, clientId });
    if (conn.phase !== 'authenticating') return;
    if (!found) {
      this.refused('authentication', clientId, {}, 'MQTT connection refused: unknown credentials');
      conn.refuse(v5 ? (certificate !== null ? Reason.notAuthorized : Reason.badUserNameOrPassword) : ConnackV3.notAuthorized);
      return;
    }
    const device = connectedDeviceOf(found);
    const assigned = clientId === '' ? `edge-${randomUUID()}` : null;
    if (assigned !== null) clientId = assigned;
    const asked = v5 ? (packet.properties?.sessionExpiryInterval ?? 0) : cleanStart ? 0 : SESSION_EXPIRY_MAX_S;
    const expiry = Math.min(asked, SESSION_EXPIRY_MAX_S);

    const { session, present, previous } = this.sessions.open(device.id, clientId, cleanStart);
    session.attached = conn;
    session.expirySeconds = expiry;
    conn.device = device;
    conn.session = session;
    conn.clientId = clientId;
    conn.will = packet.will ? { topic: packet.will.topic, payload: Buffer.from(packet.will.payload) } : null;
    // MQTT: the older connection of the session is closed (its will published, as the specification says).
    if (previous instanceof MqttConnection && previous !== conn) previous.end(Reason.sessionTakenOver, false);
    const conns = this.online.get(device.id) ?? new Set();
    conns.add(conn);
    this.online.set(device.id, conns);
    // Taken before the ONLINE announcement, which may send queued RPCs: those go out once, not again as resends.
    const resend = [...session.delivery.pending()];
    this.deps.state.mqttOpened(device.id);
    this.corkUntilStored(conn.socket);
    // What mqttOpened sent waits in the writer behind the CONNACK (mqtt-packet-writer.ts).
    conn.accept(present, v5 ? connackProperties(assigned, asked > expiry ? expiry : null) : undefined);
    // A resumed session resends what the device had not acknowledged, under the same ids.
    for (const [id, m] of resend) conn.writer.publish(m.topic, m.payload, 1, id, true);
  }

  /**
   * Holds what is written to `socket` (its CONNACK first) until the next turn's immediates have
   * run. The device module stores the state changes of a turn in one transaction on an immediate
   * queued by the first of them (server/modules/device/device-state-writer.ts), which
   * `mqttOpened` has queued before this one: a device that sees its CONNACK finds itself ONLINE in
   * the device list, as it did when CONNECTs were authenticated in the poll phase, whose state
   * writes ran before the next socket was read.
   */
  private corkUntilStored(socket: Socket): void {
    socket.cork();
    if (this.corked.push(socket) > 1) return;
    setImmediate(() => {
      const corked = this.corked;
      this.corked = [];
      for (const s of corked) s.uncork();
    });
  }

  /** A provisioning connection: no device, a session of its own that ends with it. */
  private openProvisioning(conn: MqttConnection, clientId: string): void {
    conn.session = new MqttSession(`${PROVISION_MQTT_USER_NAME}/${clientId}`, '');
    conn.session.attached = conn;
    conn.will = null;
    conn.accept(false, conn.version === 5 ? connackProperties(null, null) : undefined);
  }

  private provisionRequest(conn: MqttConnection, topic: string, payload: Buffer, settle: (reason: number | null) => void): void {
    if (topic !== provisionTopics.request) {
      this.refused('topic', PROVISION_MQTT_USER_NAME, { topic }, 'MQTT provisioning publish on another topic');
      settle(conn.version === 5 ? Reason.notAuthorized : null);
      return;
    }
    this.deps.provision(payload, conn.remoteAddress ?? '').then(
      (answer) => {
        this.deliver(conn, { topic: provisionTopics.response, payload: Buffer.from(JSON.stringify(answer)), qos: 1, rpc: null });
        settle(Reason.success);
      },
      (err: unknown) => {
        this.deps.log.error({ err }, 'device provisioning failed');
        this.deliver(conn, { topic: provisionTopics.response, payload: Buffer.from(JSON.stringify({ status: 'FAILURE', errorMsg: 'provisioning failed' })), qos: 1, rpc: null });
        settle(Reason.success);
      },
    );
  }

  /**
   * Handles a device message on `topic` (a publish, or a will): false when the device may not
   * publish there. `settle` hears the outcome: 0 stored, a reason for a refused message, null
   * when it could not be stored.
   */
  private handle(conn: MqttConnection, device: ConnectedDevice, topic: string, payload: Buffer, settle: (reason: number | null) => void): boolean {
    // A short (v2) topic is its v1 topic, answered in the short form.
    const long = longTopicOf(topic);
    const kind = publishKind(long ?? topic, device.deviceType);
    if (!kind) return false;
    const { stats, log } = this.deps;
    const v5 = conn.version === 5;
    const finish = (err: unknown): void => {
      if (err === null) {
        stats.accept();
        settle(Reason.success);
        return;
      }
      if (err instanceof DiskFullRefusal || err instanceof DatabaseLostRefusal) {
        stats.refuse(err.key, device.id);
        // MQTT 5: PUBACK 0x97 quota exceeded. MQTT 3.1.1 has no refusal: no PUBACK and the
        // connection closes, so the device keeps the message and sends it again on reconnect
        // (acknowledging would lose it). The guard logs the episode once; no line per message.
        settle(v5 ? refusalReason(err.key) : null);
        return;
      }
      if (err instanceof PayloadRefusal) {
        const suppressed = stats.refuse(err.key, device.id);
        if (suppressed !== null) log.warn({ deviceId: device.id, topic, bytes: payload.length, reason: err.key, ...err.params, suppressed }, 'device message refused');
        // Acknowledged all the same: resending a refused message would not make it acceptable.
        settle(v5 ? refusalReason(err.key) : Reason.success);
        return;
      }
      // Not committed: no PUBACK; the connection closes and the device sends the message again.
      log.error({ err, deviceId: device.id, topic }, 'device message not stored');
      settle(null);
    };
    if (kind.kind === 'telemetry') {
      // Most messages are telemetry: a callback all the way to the commit, no promise per message.
      try {
        this.deps.messages.storeTelemetry(device, payload, finish);
      } catch (err) {
        finish(err);
      }
      return true;
    }
    const reply = (replyTopic: string, body: unknown): void => this.reply(conn, (long !== null ? shortTopicOf(replyTopic) : null) ?? replyTopic, body);
    this.deps.dispatch.handle(device, kind, payload, reply).then(
      () => finish(null),
      (err: unknown) => finish(err ?? new Error('device message failed')),
    );
    return true;
  }

  private publishWill(conn: MqttConnection, device: ConnectedDevice): void {
    const { topic, payload } = conn.will!;
    const handled = this.handle(conn, device, topic, payload, (reason) => {
      if (reason === null) this.deps.log.warn({ deviceId: device.id, topic }, 'MQTT will not stored');
    });
    if (!handled) this.refused('topic', device.id, { topic }, 'MQTT will on a topic the device may not use: dropped', 'warn');
  }

  /** An answer to the publishing connection, at the QoS it subscribed the topic's filter with (0 when it did not). */
  private reply(conn: MqttConnection, topic: string, body: unknown): void {
    if (conn.phase !== 'open') return;
    this.send(conn, { topic, payload: Buffer.from(JSON.stringify(body)), qos: 1, rpc: null }, true);
  }

  /** Now when the session subscribed the message's topic, else once it does. */
  private deliver(conn: MqttConnection, message: HeldMessage): void {
    const session = conn.session!;
    if (routeOf(session, message.topic).granted === null) session.delivery.hold(message);
    else this.send(conn, message);
  }

  /** At the message's QoS or the lower one the session subscribed with (`unsubscribed`: QoS 0 when it did not). */
  private send(conn: MqttConnection, message: HeldMessage, unsubscribed = false): void {
    const session = conn.session!;
    const { topic, granted } = routeOf(session, message.topic);
    if (granted === null && !unsubscribed) return;
    const qos = message.qos === 1 && granted === 1 ? 1 : 0;
    const id = qos === 1 ? session.nextMessageId() : 0;
    // Kept under the topic it went out on: a resend repeats it.
    if (qos === 1) session.delivery.sent(id, { ...message, topic });
    conn.writer.publish(topic, message.payload, qos, id, false);
  }

  /**
   * A firmware or software chunk request (package-chunks.ts), as ThingsBoard's MqttTransportHandler
   * answers it: acknowledged, then the chunk on `v2/fw/response/{requestId}/chunk/{n}` at the QoS
   * the session subscribed the response topics with (0 when it did not).
   */
  private packageChunk(conn: MqttConnection, device: ConnectedDevice, request: PackageRequest, payload: Buffer, settle: (reason: number | null) => void): void {
    const answer = this.deps.packages.answer(conn, device.id, request, payload);
    if ('failure' in answer) {
      this.packageError(conn, request.kind, answer.failure);
      settle(null);
      return;
    }
    settle(Reason.success);
    this.deps.messages.announce(device.id, payload.length);
    const session = conn.session!;
    const topic = packageResponseTopic(request);
    const granted = session.subscribedQos(`v2/${request.kind}/response/+/chunk/+`) ?? session.subscribedQos(`v2/${request.kind}/response/+`) ?? 0;
    const id = granted === 1 ? session.nextMessageId() : 0;
    if (granted === 1) session.delivery.sent(id, { topic, payload: answer.payload, qos: 1, rpc: null });
    conn.writer.publish(topic, answer.payload, granted, id, false);
  }

  /**
   * A chunk request that cannot be served (no package assigned, a chunk too large): ThingsBoard's
   * answer (MqttTransportHandler.sendOtaPackageError): the status text on the error topic at the QoS
   * the session subscribed it with (1 when it did not), no PUBACK, and the connection closed (MQTT 5:
   * DISCONNECT 0x83).
   */
  private packageError(conn: MqttConnection, kind: 'fw' | 'sw', failure: PackageFailure): void {
    const session = conn.session!;
    const topic = packageErrorTopic(kind);
    const qos = session.subscribedQos(topic) ?? 1;
    const id = qos === 1 ? session.nextMessageId() : 0;
    conn.writer.publish(topic, Buffer.from(failure), qos, id, false);
    this.refused('package', conn.device?.id, { topic, failure }, 'MQTT firmware request refused, connection closed');
    conn.end(Reason.implementationSpecificError, false);
  }

  /** Counts a refusal and logs it (at info unless told), one line per reason and source a minute. */
  private refused(reason: string, source: string | undefined, details: Record<string, unknown>, text: string, level: 'info' | 'warn' = 'info'): void {
    const suppressed = this.deps.stats.refuse(reason, source);
    if (suppressed !== null) this.deps.log[level]({ source, ...details, suppressed }, text);
  }
}
