/**
 * One simulated device: a real MQTT client authenticated by the device's access token,
 * publishing thing-model-shaped telemetry, reporting `overheat` events and answering
 * the console's commands on `v1/devices/me/rpc/request/+`:
 * - `setSwitch { on }` (the service) and `setAttributes { switch }` (an ATTRIBUTE command) set the
 *   switch, report it at once and answer `{ success: true }`;
 * - `reboot` and `raw` (ASCII/HEX commands) are acknowledged with `{ success: true }`;
 * - anything else answers `{ success: false, error }`.
 */
import { connectAsync, type MqttClient } from 'mqtt';
import { deviceTopics } from '../../server/contract/device-api.ts';
import { ATTRIBUTE_RPC_METHOD, RAW_RPC_METHOD, REBOOT_RPC_METHOD } from '../../server/contract/command.ts';
import { initialWalk, nextReading, OVERHEAT, SET_SWITCH, type Reading, type WalkState } from './simulator-model.ts';

export interface DeviceIdentity {
  id: string;
  name: string;
  /** ACCESS_TOKEN credentials: the MQTT user name. */
  token: string;
}

/** Counters a status line shows; shared by every device of a simulator. */
export interface DeviceCounters {
  published: number;
  /** QoS 1 publishes the broker acknowledged. */
  acknowledged: number;
  events: number;
  rpcAnswered: number;
  errors: number;
}

export function emptyCounters(): DeviceCounters {
  return { published: 0, acknowledged: 0, events: 0, rpcAnswered: 0, errors: 0 };
}

export interface SimulatedDeviceOptions {
  mqttUrl: string;
  qos?: 0 | 1;
  counters?: DeviceCounters;
  random?: () => number;
  log?: (line: string) => void;
}

type RpcAnswer = Record<string, unknown>;

export class SimulatedDevice {
  readonly counters: DeviceCounters;
  private client: MqttClient | null = null;
  private walk: WalkState;
  private readonly qos: 0 | 1;
  private readonly random: () => number;
  private readonly log: (line: string) => void;

  constructor(
    readonly identity: DeviceIdentity,
    private readonly opts: SimulatedDeviceOptions,
  ) {
    this.counters = opts.counters ?? emptyCounters();
    this.qos = opts.qos ?? 1;
    this.random = opts.random ?? Math.random;
    this.log = opts.log ?? (() => undefined);
    this.walk = initialWalk(this.random);
  }

  get reading(): Reading {
    return this.walk.reading;
  }

  get connected(): boolean {
    return this.client?.connected ?? false;
  }

  /** Connects (the first attempt must succeed; later drops reconnect every 2 s) and listens for commands. */
  async connect(): Promise<void> {
    const client = await connectAsync(
      this.opts.mqttUrl,
      {
        username: this.identity.token,
        clientId: `sim-${this.identity.id}`,
        clean: true,
        keepalive: 60,
        reconnectPeriod: 2000,
        connectTimeout: 10_000,
      },
      false,
    );
    this.client = client;
    client.on('message', (topic, payload) => this.received(topic, payload));
    client.on('error', (err) => {
      this.counters.errors++;
      this.log(`${this.identity.name}: ${err.message}`);
    });
    await client.subscribeAsync(`${deviceTopics.rpcRequest}+`, { qos: 1 });
  }

  /** Reports the next reading (and an `overheat` event when it crosses the threshold). */
  tick(): void {
    const { state, overheat } = nextReading(this.walk, this.random);
    this.walk = state;
    this.publish(deviceTopics.telemetry, { ...state.reading });
    if (overheat) {
      this.counters.events++;
      this.publish(deviceTopics.events, { identifier: OVERHEAT, params: { temperature: state.reading.temperature } }, false);
    }
  }

  async stop(): Promise<void> {
    const client = this.client;
    this.client = null;
    await client?.endAsync().catch(() => undefined);
  }

  private publish(topic: string, message: Record<string, unknown>, count = true): void {
    const client = this.client;
    if (!client?.connected) return;
    if (count) this.counters.published++;
    client.publish(topic, JSON.stringify(message), { qos: this.qos }, (err) => {
      if (err) {
        this.counters.errors++;
        return;
      }
      if (count && this.qos === 1) this.counters.acknowledged++;
    });
  }

  private received(topic: string, payload: Buffer): void {
    if (!topic.startsWith(deviceTopics.rpcRequest)) return;
    const requestId = topic.slice(deviceTopics.rpcRequest.length);
    let answer: RpcAnswer;
    try {
      const request = JSON.parse(payload.toString('utf8')) as { method?: unknown; params?: unknown };
      answer = this.answer(String(request.method ?? ''), request.params);
    } catch {
      answer = { success: false, error: 'the request is not JSON' };
    }
    this.client?.publish(`${deviceTopics.rpcResponse}${requestId}`, JSON.stringify(answer), { qos: 1 });
    this.counters.rpcAnswered++;
  }

  private answer(method: string, params: unknown): RpcAnswer {
    const args = typeof params === 'object' && params !== null ? (params as Record<string, unknown>) : {};
    switch (method) {
      case SET_SWITCH:
        if (typeof args.on !== 'boolean') return { success: false, error: 'params.on must be true or false' };
        this.setSwitch(args.on);
        return { success: true };
      case ATTRIBUTE_RPC_METHOD:
        if (typeof args.switch === 'boolean') this.setSwitch(args.switch);
        return { success: true };
      case REBOOT_RPC_METHOD:
      case RAW_RPC_METHOD:
        return { success: true };
      default:
        return { success: false, error: `unknown method ${method}` };
    }
  }

  private setSwitch(on: boolean): void {
    this.walk = { ...this.walk, reading: { ...this.walk.reading, switch: on } };
    this.publish(deviceTopics.telemetry, { switch: on });
  }
}
