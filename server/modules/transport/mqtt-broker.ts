/**
 * The embedded MQTT broker (aedes) devices connect to (server/contract/device-api.ts).
 *
 * - CONNECT: the credentials module authenticates (ACCESS_TOKEN user name, or MQTT_BASIC; over TLS
 *   a client certificate, see mqtt-tls.ts); anyone else gets CONNACK 5 "not authorized".
 * - PUBLISH: only the device's own topics. A message is handled inside `authorizePublish`, whose
 *   callback aedes waits for before it sends the PUBACK: the callback runs after the batch holding
 *   the message is committed, so an acknowledged QoS 1 message survives a crash. It also holds
 *   back the client's next socket read, which is the back-pressure a fast device meets.
 * - Devices share the literal `v1/devices/me/...` topics, so a device's publish must never reach
 *   another device subscribed to the same string: each handled publish is moved to a topic no one
 *   can subscribe to before aedes routes it, and nothing a device sent is ever forwarded. Server
 *   messages (RPC, attribute answers) go to one client directly.
 * - Sessions belong to devices: aedes keys a session (its persistent subscriptions, its QoS 1
 *   messages not yet acknowledged, the connection a new CONNECT takes over) by client ID, which
 *   devices choose freely and often share (one firmware image, one ID). Once authenticated, a
 *   client's ID is rewritten to `{deviceId}/{clientId}` before aedes looks its session up, so a
 *   device gets back only its own session and can never take over or close another device's
 *   connection; two devices presenting one ID simply hold two sessions.
 * - A last will tells of a device that went away unexpectedly. Connections the server ends itself
 *   (credentials replaced, device deleted, shutdown) have their will dropped.
 */
import { once } from 'node:events';
import { createServer, type Server, type Socket } from 'node:net';
import { createServer as createTlsServer, type Server as TlsServer } from 'node:tls';
import { Aedes, type AuthenticateError, type Client, type PublishPacket, type Subscription } from 'aedes';
import type { FastifyBaseLogger } from 'fastify';
import type { CredentialsService } from '../device/credentials-service.ts';
import type { DeviceDispatch } from './device-dispatch.ts';
import { connectedDeviceOf, type ConnectedDevice, type DeviceMessages } from './device-messages.ts';
import { PayloadRefusal } from '../telemetry/device-payload.ts';
import type { DeviceStateTracker } from './device-state.ts';
import { guardFrames } from './frame-guard.ts';
import { clientCertificate, tlsServerOptions, type TlsIdentity } from './mqtt-tls.ts';
import { filterOf, RpcDelivery, type RpcRef } from './rpc-delivery.ts';
import { publishKind, subscribeAllowed } from './topic-acl.ts';
import type { TransportStats } from './transport-stats.ts';

/** Where handled publishes go: `$` topics match no wildcard and the ACL allows no subscription to it. */
const CONSUMED_TOPIC = '$edge/consumed';
/** A packet announcing more than this closes its connection before it is buffered. */
export const MQTT_FRAME_MAX_BYTES = 1024 * 1024;
/** MQTT CONNACK return code 5. */
const NOT_AUTHORIZED = 5;

export interface MqttBrokerDeps {
  credentials: Pick<CredentialsService, 'authenticate' | 'authenticateX509'>;
  messages: DeviceMessages;
  dispatch: DeviceDispatch;
  state: DeviceStateTracker;
  stats: TransportStats;
  log: FastifyBaseLogger;
}

function notAuthorized(): AuthenticateError {
  const err = new Error('not authorized') as AuthenticateError;
  (err as { returnCode: number }).returnCode = NOT_AUTHORIZED;
  return err;
}

/** The QoS (0 or 1) a client subscribed `filter` with, or null when it did not. */
function subscribedQos(client: Client, filter: string): 0 | 1 | null {
  const subs = (client as unknown as { subscriptions: Record<string, { qos: number } | undefined> }).subscriptions;
  const sub = subs[filter];
  return sub ? (sub.qos > 0 ? 1 : 0) : null;
}

/** The session key aedes files a device's connection under (see above): unique per device. */
function sessionKey(deviceId: string, clientId: string): string {
  return `${deviceId}/${clientId}`;
}

export class MqttBroker {
  private readonly sessions = new WeakMap<Client, ConnectedDevice>();
  /** Connections the server is closing: their will is not published. */
  private readonly ended = new WeakSet<Client>();
  private readonly byDevice = new Map<string, Set<Client>>();
  private readonly outgoing = new RpcDelivery();
  private aedes: Aedes | null = null;
  private server: Server | null = null;
  private tlsServer: TlsServer | null = null;
  /** The bound port (the configured one, or the ephemeral one for port 0). */
  port = 0;
  /** The bound MQTT over TLS port, or null while it is not listening. */
  tlsPort: number | null = null;

  constructor(private readonly deps: MqttBrokerDeps) {}

  async start(host: string, port: number): Promise<void> {
    const { log } = this.deps;
    const aedes = await Aedes.createBroker({
      authenticate: (client, username, password, done) => {
        this.authenticate(client, username, password).then(
          (ok) => (ok ? done(null, true) : done(notAuthorized(), false)),
          (err: unknown) => {
            log.error({ err }, 'MQTT authentication failed');
            done(notAuthorized(), false);
          },
        );
      },
      authorizePublish: (client, packet, done) => this.authorizePublish(client, packet, done),
      authorizeSubscribe: (client, subscription, done) => done(null, this.authorizeSubscribe(client, subscription)),
      // Only server messages travel to clients; every device publish was consumed (see above).
      authorizeForward: (_client, packet) => ((packet as { clientId?: string }).clientId ? null : packet),
      drainTimeout: 30_000,
      connectTimeout: 10_000,
    });
    aedes.on('client', (client) => this.opened(client));
    aedes.on('clientDisconnect', (client) => this.closed(client));
    // Server messages wait for the subscription to their topic; a PUBACK makes an RPC DELIVERED (rpc-delivery.ts).
    aedes.on('subscribe', (subscriptions, client) => {
      for (const s of subscriptions) for (const m of this.outgoing.release(client, s.topic)) this.send(client, m.topic, m.payload, m.qos, m.rpc);
    });
    aedes.on('ack', (_packet, client) => {
      const rpc = this.outgoing.acked(client);
      if (rpc) this.deps.messages.rpcDelivered(rpc.deviceId, rpc.requestId);
    });
    aedes.on('clientError', (client, err) => log.debug({ clientId: client.id, err: err.message }, 'MQTT client error'));
    aedes.on('connectionError', (_client, err) => log.debug({ err: err.message }, 'MQTT connection error'));
    this.aedes = aedes;

    const server = createServer((socket) => this.accept(aedes, socket));
    server.on('error', (err) => log.error({ err }, 'MQTT server error'));
    server.listen(port, host);
    await once(server, 'listening');
    this.server = server;
    this.port = (server.address() as { port: number }).port;
  }

  /** Opens the MQTT over TLS port (after `start`): same broker, same limits, `identity`'s certificate. */
  async listenTls(host: string, port: number, identity: TlsIdentity): Promise<void> {
    const { aedes } = this;
    if (!aedes) throw new Error('the broker is not started');
    const { log, stats } = this.deps;
    const server = createTlsServer(tlsServerOptions(identity), (socket) => this.accept(aedes, socket));
    // Plain MQTT, a wrong protocol version or a stalled handshake: the socket is closed, the port keeps serving.
    server.on('tlsClientError', (err: Error, socket: Socket) => {
      const suppressed = stats.refuse('tlsHandshake', socket.remoteAddress);
      if (suppressed !== null) log.info({ remote: socket.remoteAddress, err: err.message, suppressed }, 'MQTT over TLS handshake failed');
    });
    server.on('error', (err) => log.error({ err }, 'MQTT over TLS server error'));
    server.listen(port, host);
    await once(server, 'listening');
    this.tlsServer = server;
    this.tlsPort = (server.address() as { port: number }).port;
  }

  async close(): Promise<void> {
    const { aedes, server, tlsServer } = this;
    for (const clients of this.byDevice.values()) for (const client of clients) this.ended.add(client);
    this.aedes = null;
    this.server = null;
    this.tlsServer = null;
    if (aedes) await new Promise<void>((resolve) => aedes.close(() => resolve()));
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
    if (tlsServer) await new Promise<void>((resolve) => tlsServer.close(() => resolve()));
  }

  isConnected(deviceId: string): boolean {
    return (this.byDevice.get(deviceId)?.size ?? 0) > 0;
  }

  /**
   * Sends a server message to every session of `deviceId`, or once that session subscribes to the
   * topic; `rpc` names the request it carries (DELIVERED on its PUBACK). False when the device has
   * no session.
   */
  publishTo(deviceId: string, topic: string, body: unknown, qos: 0 | 1, rpc: RpcRef | null = null): boolean {
    const clients = this.byDevice.get(deviceId);
    if (!clients?.size) return false;
    const payload = Buffer.from(JSON.stringify(body));
    for (const client of clients) {
      if (subscribedQos(client, filterOf(topic)) === null) this.outgoing.hold(client, { topic, payload, qos, rpc });
      else this.send(client, topic, payload, qos, rpc);
    }
    return true;
  }

  /** Closes every session of `deviceId` (credentials replaced, device deleted). */
  disconnect(deviceId: string): void {
    for (const client of this.byDevice.get(deviceId) ?? []) {
      this.ended.add(client);
      client.close();
    }
  }

  /** The device changed (type, product, gateway): its open sessions see the new one. */
  refresh(deviceId: string, device: ConnectedDevice): void {
    for (const client of this.byDevice.get(deviceId) ?? []) this.sessions.set(client, device);
  }

  /** A new connection, plain or TLS (once its handshake is done). */
  private accept(aedes: Aedes, socket: Socket): void {
    const { log, stats } = this.deps;
    guardFrames(socket, MQTT_FRAME_MAX_BYTES, (announced) => {
      const suppressed = stats.refuse('frameTooLarge', socket.remoteAddress);
      if (suppressed !== null) log.warn({ remote: socket.remoteAddress, announced, suppressed }, 'MQTT packet over 1 MB: connection closed');
    });
    aedes.handle(socket);
  }

  private async authenticate(client: Client, username: string | undefined, password: Buffer | undefined): Promise<boolean> {
    // A client certificate decides alone (ThingsBoard's X.509 credentials): its user name may be empty.
    const certificate = clientCertificate(client.conn);
    const device =
      certificate !== null
        ? this.deps.credentials.authenticateX509(certificate)
        : await this.deps.credentials.authenticate({ username, password, clientId: client.id });
    if (!device) {
      const suppressed = this.deps.stats.refuse('authentication', client.id);
      if (suppressed !== null) this.deps.log.info({ clientId: client.id, suppressed }, 'MQTT connection refused: unknown credentials');
      return false;
    }
    this.sessions.set(client, connectedDeviceOf(device));
    // aedes reads the session by this ID only after authentication succeeds (fetchSubs, then registerClient).
    client.id = sessionKey(device.id, client.id);
    return true;
  }

  private opened(client: Client): void {
    const device = this.sessions.get(client);
    if (!device) return;
    const clients = this.byDevice.get(device.id) ?? new Set();
    clients.add(client);
    this.byDevice.set(device.id, clients);
    this.deps.state.mqttOpened(device.id);
  }

  private closed(client: Client): void {
    const device = this.sessions.get(client);
    if (!device) return;
    const clients = this.byDevice.get(device.id);
    if (!clients?.delete(client)) return;
    if (clients.size === 0) this.byDevice.delete(device.id);
    this.deps.state.mqttClosed(device.id);
    if (device.deviceType === 'GATEWAY' && !this.isConnected(device.id)) this.deps.state.gatewayGone(device.id);
  }

  private authorizeSubscribe(client: Client, subscription: Subscription): Subscription | null {
    const device = this.sessions.get(client);
    if (device && subscribeAllowed(subscription.topic, device.deviceType)) return subscription;
    const suppressed = this.deps.stats.refuse('subscription', device?.id);
    if (suppressed !== null) this.deps.log.info({ deviceId: device?.id, topic: subscription.topic, suppressed }, 'MQTT subscription refused');
    return null;
  }

  private authorizePublish(client: Client | null, packet: PublishPacket, done: (err?: Error | null) => void): void {
    const { stats, log } = this.deps;
    const device = client ? this.sessions.get(client) : undefined;
    if (!client || !device) {
      done(new Error('not authenticated'));
      return;
    }
    // The will of a connection the server closed (aedes publishes it after the close) is refused.
    if (this.ended.has(client)) {
      done(new Error('session ended by the server'));
      return;
    }
    const topic = packet.topic;
    const kind = publishKind(topic, device.deviceType);
    if (!kind) {
      const suppressed = stats.refuse('topic', device.id);
      if (suppressed !== null) log.warn({ deviceId: device.id, topic, suppressed }, 'MQTT publish on a topic the device may not use: connection closed');
      done(new Error(`topic not allowed: ${topic}`));
      return;
    }
    const payload = typeof packet.payload === 'string' ? Buffer.from(packet.payload) : packet.payload;
    packet.topic = CONSUMED_TOPIC;
    packet.retain = false;
    const finish = (err: unknown): void => {
      if (err === null) {
        stats.accept();
        done(null);
        return;
      }
      if (err instanceof PayloadRefusal) {
        const suppressed = stats.refuse(err.key, device.id);
        if (suppressed !== null) log.warn({ deviceId: device.id, topic, bytes: payload.length, reason: err.key, ...err.params, suppressed }, 'device message refused');
        // Acknowledged all the same: resending a refused message would not make it acceptable.
        done(null);
        return;
      }
      // Not committed: no PUBACK; the connection closes and the device sends the message again.
      log.error({ err, deviceId: device.id, topic }, 'device message not stored');
      done(err as Error);
    };
    if (kind.kind === 'telemetry') {
      // Most messages are telemetry: a callback all the way to the commit, no promise per message.
      try {
        this.deps.messages.storeTelemetry(device, payload, finish);
      } catch (err) {
        finish(err);
      }
      return;
    }
    this.deps.dispatch.handle(device, kind, payload, (topic, body) => this.reply(client, topic, body)).then(
      () => finish(null),
      (err: unknown) => finish(err ?? new Error('device message failed')),
    );
  }

  /** An answer to the publishing connection, at the QoS it subscribed the topic's filter with (0 when it did not). */
  private reply(client: Client, topic: string, body: unknown): void {
    this.send(client, topic, Buffer.from(JSON.stringify(body)), subscribedQos(client, filterOf(topic)) ?? 0);
  }

  /** At `qos`, or the lower QoS the client subscribed the topic with. */
  private send(client: Client, topic: string, payload: Buffer, qos: 0 | 1, rpc: RpcRef | null = null): void {
    if (qos === 1 && subscribedQos(client, filterOf(topic)) !== 1) qos = 0;
    if (qos === 1) this.outgoing.sent(client, rpc);
    client.publish({ cmd: 'publish', topic, payload, qos, retain: false, dup: false }, (err) => {
      if (err) this.deps.log.debug({ clientId: client.id, topic, err: err.message }, 'MQTT delivery failed');
    });
  }
}
