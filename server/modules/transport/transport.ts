/**
 * The device transport as one service: the MQTT broker, the HTTP device API's helpers, device
 * state and server RPC. Other modules see it as `Transport` on ModuleDeps (commands send RPCs and
 * ask who is online); tests reach the bound MQTT port through it.
 */
import type { FastifyBaseLogger } from 'fastify';
import { CLIENT_RPC_TIMEOUT_MS, deviceTopics, HTTP_INACTIVITY_TIMEOUT_MS, type RpcRequest, type SharedAttributesPush } from '../../contract/device-api.ts';
import type { Core } from '../../core.ts';
import type { Announce } from '../../lib/event-bus.ts';
import type { Services } from '../../module.ts';
import { ClientRpc } from './client-rpc.ts';
import { isDiskFull } from '../../lib/disk-full.ts';
import { DeviceDispatch } from './device-dispatch.ts';
import { connectedDeviceOf, DeviceMessages, type ConnectedDevice } from './device-messages.ts';
import { DeviceStateTracker } from './device-state.ts';
import { GatewayMessages } from './gateway-messages.ts';
import { MqttBroker } from './mqtt-broker.ts';
import { PackageChunks, type PackageSource } from './package-chunks.ts';
import { loadTlsIdentity, type TlsIdentity } from './mqtt-tls.ts';
import { LongPollMailbox } from './long-poll-mailbox.ts';
import { RpcMailbox } from './rpc-mailbox.ts';
import { TransportStats, type TransportStatsSnapshot } from './transport-stats.ts';

/** What other modules use of the transport. */
export interface Transport {
  /** The bound MQTT port (the configured one, or the ephemeral one for `--mqtt-port 0`). */
  readonly mqttPort: number;
  isOnline(deviceId: string): boolean;
  /**
   * Sends server RPC `requestId` to the device (MQTT `v1/devices/me/rpc/request/{id}` at the QoS
   * the device subscribed with, a GATEWAY's `v1/gateway/rpc` for its sub-device, or the HTTP
   * device's next poll). False when the device is offline. Its acknowledgement arrives as
   * `device.rpcDelivered` (QoS 1 PUBACK, or the poll that took it), its answer as `device.rpcResponse`.
   */
  sendRpc(deviceId: string, requestId: number, method: string, params: unknown): boolean;
  /**
   * Tells the device of a shared-attribute change, `{ key: value }` or `{ deleted: [keys] }`: MQTT
   * `v1/devices/me/attributes`, its gateway's `v1/gateway/attributes` as `{ device, data }`, and
   * the HTTP polls waiting on `…/attributes/updates`.
   */
  pushAttributes(deviceId: string, changes: SharedAttributesPush): void;
  /**
   * Answers client RPC `requestId` of `deviceId` (announced as `device.clientRpc`) with `body`, any
   * JSON: on MQTT `v1/devices/me/rpc/response/{id}`, on HTTP the waiting call's response. False
   * when that call is no longer waiting (answered, timed out, or its device went away).
   */
  answerClientRpc(deviceId: string, requestId: number, body: unknown): boolean;
  /**
   * Another module's link to a device (TCP access, Modbus) holds it ONLINE while `held`; the
   * device is OFFLINE once no source holds it.
   */
  holdOnline(deviceId: string, held: boolean): void;
  /**
   * A delivery path for devices the transport does not reach itself (a Modbus slave): `sendRpc`
   * asks each path first; one that takes the request returns true and later announces
   * `device.rpcDelivered` and `device.rpcResponse` (or `device.rpcFailed`). Returns its removal.
   */
  addDeliveryPath(path: DeliveryPath): () => void;
  /**
   * Where firmware chunks come from (the OTA module): MQTT `v2/fw/request/…` and HTTP
   * `…/firmware` serve the package it gives for a device; without one every device has none.
   */
  setPackageSource(source: PackageSource): void;
}

/** See `Transport.addDeliveryPath`. */
export type DeliveryPath = (deviceId: string, requestId: number, method: string, params: unknown) => boolean;

export interface TransportOptions {
  /** HTTP devices go OFFLINE after this long without a call (default 300 s; tests shorten it). */
  httpInactivityMs?: number;
  /** How long a client RPC waits for its answer (default 60 s, ThingsBoard's; tests shorten it). */
  clientRpcTimeoutMs?: number;
}

export interface TransportDeps extends Pick<Services, 'devices' | 'credentials' | 'telemetry' | 'sharedAttributes' | 'provisioning'> {
  core: Pick<Core, 'config' | 'bus'>;
  log: FastifyBaseLogger;
  options?: TransportOptions;
}

export class DeviceTransport implements Transport {
  readonly state: DeviceStateTracker;
  readonly mailbox = new RpcMailbox();
  /**
   * Shared-attribute changes for HTTP devices: every poll waiting gets each change, and nothing is
   * kept between polls, as ThingsBoard's attribute long poll (a device reads the attributes again
   * after a poll it missed).
   */
  readonly attributeUpdates = new LongPollMailbox<SharedAttributesPush>(0);
  readonly stats = new TransportStats();
  readonly messages: DeviceMessages;
  readonly clientRpc: ClientRpc;
  readonly packages = new PackageChunks();
  private readonly gateways: GatewayMessages;
  private readonly broker: MqttBroker;
  private readonly unsubscribe: (() => void)[] = [];
  private tls: TlsIdentity | null = null;
  private readonly deliveryPaths: DeliveryPath[] = [];

  constructor(private readonly deps: TransportDeps) {
    const { core, devices, credentials, telemetry, sharedAttributes, log } = deps;
    const announce: Announce = (event, payload) => core.bus.emit(event, payload);
    this.state = new DeviceStateTracker(announce, deps.options?.httpInactivityMs ?? HTTP_INACTIVITY_TIMEOUT_MS);
    this.messages = new DeviceMessages(telemetry, announce, sharedAttributes);
    this.clientRpc = new ClientRpc({ announce, messages: this.messages, timeoutMs: deps.options?.clientRpcTimeoutMs ?? CLIENT_RPC_TIMEOUT_MS });
    this.gateways = new GatewayMessages({
      devices,
      telemetry,
      state: this.state,
      messages: this.messages,
      attributes: sharedAttributes,
      refused: (gateway, name, refusal) => {
        const suppressed = this.stats.refuse(refusal.key, `${gateway.id}/${name}`);
        if (suppressed !== null) log.warn({ gatewayId: gateway.id, device: name, reason: refusal.key, suppressed }, 'gateway entry refused');
      },
    });
    this.broker = new MqttBroker({
      credentials,
      messages: this.messages,
      dispatch: new DeviceDispatch(this.messages, this.gateways, this.clientRpc),
      state: this.state,
      stats: this.stats,
      log,
      provision: (request, address) => deps.provisioning.provision(request, address),
      packages: this.packages,
    });
  }

  /** Marks every device OFFLINE (nobody is connected yet), then opens the MQTT ports. */
  async start(): Promise<void> {
    try {
      this.deps.devices.markAllOffline();
    } catch (err) {
      // A full disk must not keep the gateway from starting: devices show their last state until
      // they connect again, and the console stays reachable to free space.
      if (!isDiskFull(err)) throw err;
      this.deps.log.warn('disk full: devices could not be marked offline at start');
    }
    this.listen();
    this.loadTls();
    await this.broker.start(this.deps.core.config.host, this.deps.core.config.mqttPort);
    await this.listenTls();
  }

  /** The bound MQTT over TLS port, or null when it is off (`--mqtts-port off`). */
  get mqttsPort(): number | null {
    return this.broker.tlsPort;
  }

  /** The certificate devices see on the TLS port (its file and SHA-256 fingerprint), or null when off. */
  get mqttsCertificate(): Pick<TlsIdentity, 'certFile' | 'fingerprint256'> | null {
    return this.tls && { certFile: this.tls.certFile, fingerprint256: this.tls.fingerprint256 };
  }

  get mqttPort(): number {
    return this.broker.port;
  }

  isOnline(deviceId: string): boolean {
    return this.state.isOnline(deviceId);
  }

  holdOnline(deviceId: string, held: boolean): void {
    this.state.linkHeld(deviceId, held);
  }

  addDeliveryPath(path: DeliveryPath): () => void {
    this.deliveryPaths.push(path);
    return () => {
      const at = this.deliveryPaths.indexOf(path);
      if (at !== -1) this.deliveryPaths.splice(at, 1);
    };
  }

  setPackageSource(source: PackageSource): void {
    this.packages.source = source;
  }

  sendRpc(deviceId: string, requestId: number, method: string, params: unknown): boolean {
    for (const path of this.deliveryPaths) if (path(deviceId, requestId, method, params)) return true;
    const request: RpcRequest = { id: requestId, method, params };
    const rpc = { deviceId, requestId };
    // The device topic names the id, so the body does not (ThingsBoard's JsonConverter leaves it out there).
    if (this.broker.publishTo(deviceId, `${deviceTopics.rpcRequest}${requestId}`, { method, params }, 1, rpc)) return true;
    const gatewayId = this.state.gatewayOf(deviceId);
    if (gatewayId) {
      const name = this.deviceOf(deviceId)?.name;
      return name !== undefined && this.broker.publishTo(gatewayId, deviceTopics.gatewayRpc, { device: name, data: request }, 1, rpc);
    }
    if (!this.state.isOnline(deviceId)) return false;
    this.mailbox.deliver(deviceId, request);
    return true;
  }

  pushAttributes(deviceId: string, changes: SharedAttributesPush): void {
    this.attributeUpdates.broadcast(deviceId, changes);
    if (this.broker.publishTo(deviceId, deviceTopics.attributes, changes, 1)) return;
    const gatewayId = this.state.gatewayOf(deviceId);
    const name = gatewayId ? this.deviceOf(deviceId)?.name : undefined;
    if (gatewayId && name !== undefined) this.broker.publishTo(gatewayId, deviceTopics.gatewayAttributes, { device: name, data: changes }, 1);
  }

  answerClientRpc(deviceId: string, requestId: number, body: unknown): boolean {
    return this.clientRpc.answer(deviceId, requestId, body);
  }

  /** The device whose ACCESS_TOKEN is `token` (the HTTP device API's path segment), or null. */
  async deviceByToken(token: string): Promise<ConnectedDevice | null> {
    const { credentials } = this.deps;
    const device = await credentials.authenticate({ username: token });
    if (!device) return null;
    const held = credentials.get(device.id);
    return held.credentialsType === 'ACCESS_TOKEN' && held.credentialsId === token ? connectedDeviceOf(device) : null;
  }

  /** MQTT sessions held in memory, open or waiting to be resumed (a deleted device's are dropped). */
  get mqttSessionCount(): number {
    return this.broker.sessionCount;
  }

  statsSnapshot(): TransportStatsSnapshot {
    return this.stats.snapshot();
  }

  async close(): Promise<void> {
    for (const off of this.unsubscribe.splice(0)) off();
    this.mailbox.close();
    this.attributeUpdates.close();
    this.clientRpc.close();
    await this.broker.close();
    this.state.close();
  }

  /** Before any port opens: a bad `--mqtts-cert` stops the start with nothing listening. */
  private loadTls(): void {
    const { config } = this.deps.core;
    if (config.mqttsPort !== null) this.tls = loadTlsIdentity(config);
  }

  private async listenTls(): Promise<void> {
    const { config } = this.deps.core;
    if (this.tls && config.mqttsPort !== null) await this.broker.listenTls(config.host, config.mqttsPort, this.tls);
  }

  /** The device as the transport needs it, or undefined once it is gone. */
  private deviceOf(deviceId: string): ConnectedDevice | undefined {
    try {
      return connectedDeviceOf(this.deps.devices.get(deviceId));
    } catch {
      return undefined;
    }
  }

  private listen(): void {
    const { bus } = this.deps.core;
    this.unsubscribe.push(
      bus.on('device.created', () => this.gateways.forgetDevices()),
      bus.on('device.updated', ({ deviceId }) => {
        this.gateways.forgetDevices();
        const device = this.deviceOf(deviceId);
        if (device) this.broker.refresh(deviceId, device);
      }),
      bus.on('device.deleted', ({ deviceId }) => {
        this.gateways.forgetDevices();
        this.state.forget(deviceId);
        this.mailbox.drop(deviceId);
        this.clientRpc.drop(deviceId);
        this.broker.forget(deviceId);
      }),
      bus.on('device.credentialsChanged', ({ deviceId }) => this.broker.disconnect(deviceId)),
      bus.on('attributes.updated', ({ deviceId, scope, values }) => {
        if (scope !== 'SHARED_SCOPE') return;
        const changes: SharedAttributesPush = {};
        for (const v of values) changes[v.key] = v.value;
        this.pushAttributes(deviceId, changes);
      }),
      bus.on('attributes.deleted', ({ deviceId, keys }) => this.pushAttributes(deviceId, { deleted: keys })),
      bus.on('device.stateChanged', ({ deviceId, state }) => {
        if (state === 'OFFLINE') {
          this.mailbox.drop(deviceId);
          this.clientRpc.drop(deviceId);
        }
      }),
    );
  }
}
