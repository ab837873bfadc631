/**
 * What a device's MQTT publish does, by the kind its topic names (topic-acl.ts), whatever broker
 * carries it. Answers to the device (attribute responses, client RPC answers) go through `reply`;
 * the broker picks the QoS the device subscribed with.
 */
import { CLIENT_RPC_TIMEOUT_ANSWER, deviceTopics } from '../../contract/device-api.ts';
import type { ClientRpc } from './client-rpc.ts';
import type { ConnectedDevice, DeviceMessages } from './device-messages.ts';
import type { GatewayMessages } from './gateway-messages.ts';
import type { PublishKind } from './topic-acl.ts';

/** Sends `body` as JSON to the publishing connection on `topic`. */
export type Reply = (topic: string, body: unknown) => void;

export class DeviceDispatch {
  constructor(
    private readonly messages: DeviceMessages,
    private readonly gateways: GatewayMessages,
    private readonly clientRpc: ClientRpc,
  ) {}

  /** Resolves once the message is handled (stored, when it stores); throws PayloadRefusal for refused input. */
  async handle(device: ConnectedDevice, kind: PublishKind, payload: Buffer, reply: Reply): Promise<void> {
    const { messages, gateways } = this;
    switch (kind.kind) {
      case 'telemetry':
        return messages.telemetryMessage(device, payload);
      case 'attributes':
        return messages.attributesMessage(device, payload);
      case 'events':
        return messages.eventsMessage(device, payload);
      case 'rpcResponse':
        return messages.rpcResponse(device.id, kind.requestId, payload);
      case 'attributesRequest':
        return reply(`${deviceTopics.attributesResponse}${kind.requestId}`, messages.attributesRequest(device, payload));
      case 'gatewayConnect':
        return gateways.connect(device, payload);
      case 'gatewayDisconnect':
        return gateways.disconnect(device, payload);
      case 'gatewayTelemetry':
        return gateways.telemetry(device, payload);
      case 'gatewayAttributes':
        return gateways.attributes(device, payload);
      case 'gatewayRpc':
        return gateways.rpc(device, payload);
      case 'gatewayAttributesRequest':
        return reply(deviceTopics.gatewayAttributesResponse, gateways.attributesRequest(device, payload));
      case 'clientRpc': {
        // Acknowledged at once; the answer follows on its own topic whenever it comes.
        const topic = `${deviceTopics.rpcResponse}${kind.requestId}`;
        this.clientRpc.call(device, payload, { answer: (body) => reply(topic, body), expired: () => reply(topic, CLIENT_RPC_TIMEOUT_ANSWER) });
        return;
      }
    }
  }
}
