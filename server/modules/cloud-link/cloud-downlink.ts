/**
 * What the cloud sends the gateway on ThingsBoard's gateway topics:
 * - `v1/gateway/rpc` `{ device, data: { id, method, params } }`: a command to the named local
 *   device through the command pipeline (a recorded CUSTOM two-way command), answered on
 *   `v1/gateway/rpc` with `{ device, id, data }`;
 * - `v1/gateway/attributes` `{ device, data: { key: value } }`: shared attributes of the device,
 *   stored and pushed to it as a user's change would be.
 * A malformed message or an unknown device is logged (and an RPC answered with an error), never
 * thrown: a broker callback must not fail.
 */
import type { MqttClient } from 'mqtt';
import type { FastifyBaseLogger } from 'fastify';
import type { Services } from '../../module.ts';

export const RPC_TOPIC = 'v1/gateway/rpc';
export const ATTRIBUTES_TOPIC = 'v1/gateway/attributes';

const RPC_TIMEOUT_MS = 10_000;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function parse(payload: Buffer): unknown {
  try {
    return JSON.parse(payload.toString('utf8'));
  } catch {
    return undefined;
  }
}

export class CloudDownlink {
  constructor(
    private readonly deps: {
      deviceIdNamed: (name: string) => string | null;
      commands: Services['commands'];
      sharedAttributes: Services['sharedAttributes'];
      log: FastifyBaseLogger;
    },
  ) {}

  subscribe(client: MqttClient): void {
    client.subscribe([RPC_TOPIC, ATTRIBUTES_TOPIC], { qos: 1 }, (err) => {
      if (err) this.deps.log.warn({ err: err.message }, 'cloud subscription refused');
    });
    client.on('message', (topic, payload) => {
      if (topic === RPC_TOPIC) void this.rpc(client, payload);
      else if (topic === ATTRIBUTES_TOPIC) this.attributes(payload);
    });
  }

  private async rpc(client: MqttClient, payload: Buffer): Promise<void> {
    const message = parse(payload);
    const data = isObject(message) ? message.data : undefined;
    if (!isObject(message) || typeof message.device !== 'string' || !isObject(data) || typeof data.method !== 'string') {
      this.deps.log.warn({ payload: payload.toString('utf8').slice(0, 200) }, 'malformed RPC from the cloud ignored');
      return;
    }
    const device = message.device;
    const id = data.id;
    const reply = (body: unknown): void => {
      client.publish(RPC_TOPIC, JSON.stringify({ device, id, data: body }), { qos: 1 });
    };
    const deviceId = this.deps.deviceIdNamed(device);
    if (!deviceId) {
      this.deps.log.warn({ device }, 'RPC from the cloud for an unknown device');
      reply({ error: `unknown device ${device}` });
      return;
    }
    // Any JSON value, unchanged, as ThingsBoard hands it to the device.
    const params = data.params === undefined ? {} : data.params;
    try {
      const command = await this.deps.commands.send(deviceId, {
        commandType: 'CUSTOM',
        callType: 'SYNC',
        way: 'twoway',
        content: { method: data.method, params },
        timeoutMs: RPC_TIMEOUT_MS,
      }, { type: 'CLOUD' });
      if (command.responseContent === null || command.responseContent === undefined) {
        reply({ error: `command ${command.status}` });
        return;
      }
      reply(command.responseType === 'JSON' ? parse(Buffer.from(command.responseContent)) : command.responseContent);
    } catch (err) {
      this.deps.log.warn({ err, device }, 'RPC from the cloud not delivered');
      reply({ error: err instanceof Error ? err.message : String(err) });
    }
  }

  private attributes(payload: Buffer): void {
    const message = parse(payload);
    if (!isObject(message) || typeof message.device !== 'string' || !isObject(message.data)) {
      this.deps.log.warn({ payload: payload.toString('utf8').slice(0, 200) }, 'malformed attribute update from the cloud ignored');
      return;
    }
    const deviceId = this.deps.deviceIdNamed(message.device);
    if (!deviceId) {
      this.deps.log.warn({ device: message.device }, 'attribute update from the cloud for an unknown device');
      return;
    }
    try {
      this.deps.sharedAttributes.save(deviceId, message.data);
    } catch (err) {
      this.deps.log.warn({ err, device: message.device }, 'attribute update from the cloud refused');
    }
  }
}
