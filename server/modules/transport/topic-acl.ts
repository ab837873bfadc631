/**
 * Which topics a device may publish and subscribe to (server/contract/device-api.ts): only its own
 * `v1/devices/me/...` topics, and the gateway topics when it is a GATEWAY. Every device shares the
 * literal `me` topics, so the broker never routes one device's publish to another (see mqtt-broker.ts).
 */
import { deviceTopics as t } from '../../contract/device-api.ts';
import type { DeviceType } from '../../contract/product.ts';
import { longTopicOf, packageFilters } from './short-topics.ts';

/** What a publish on an allowed topic is. */
export type PublishKind =
  | { kind: 'telemetry' | 'attributes' | 'events' }
  | { kind: 'rpcResponse' | 'attributesRequest'; requestId: number }
  | { kind: 'gatewayConnect' | 'gatewayDisconnect' | 'gatewayTelemetry' | 'gatewayAttributes' | 'gatewayRpc' }
  | { kind: 'gatewayAttributesRequest' }
  /** A client-side RPC `{ method, params }`, answered on `v1/devices/me/rpc/response/{requestId}`. */
  | { kind: 'clientRpc'; requestId: number };

const requestIdPattern = /^(0|[1-9]\d{0,9})$/;

function requestId(topic: string, prefix: string): number | null {
  if (!topic.startsWith(prefix)) return null;
  const rest = topic.slice(prefix.length);
  return requestIdPattern.test(rest) ? Number(rest) : null;
}

const gatewayPublish: Record<string, PublishKind> = {
  [t.gatewayConnect]: { kind: 'gatewayConnect' },
  [t.gatewayDisconnect]: { kind: 'gatewayDisconnect' },
  [t.gatewayTelemetry]: { kind: 'gatewayTelemetry' },
  [t.gatewayAttributes]: { kind: 'gatewayAttributes' },
  [t.gatewayRpc]: { kind: 'gatewayRpc' },
  [t.gatewayAttributesRequest]: { kind: 'gatewayAttributesRequest' },
};

/** The kind of an allowed publish, or null for a topic this device may not publish on. */
export function publishKind(topic: string, deviceType: DeviceType): PublishKind | null {
  switch (topic) {
    case t.telemetry:
      return { kind: 'telemetry' };
    case t.attributes:
      return { kind: 'attributes' };
    case t.events:
      return { kind: 'events' };
  }
  const rpc = requestId(topic, t.rpcResponse);
  if (rpc !== null) return { kind: 'rpcResponse', requestId: rpc };
  const attributes = requestId(topic, t.attributesRequest);
  if (attributes !== null) return { kind: 'attributesRequest', requestId: attributes };
  const clientRpc = requestId(topic, t.rpcRequest);
  if (clientRpc !== null) return { kind: 'clientRpc', requestId: clientRpc };
  return deviceType === 'GATEWAY' ? (gatewayPublish[topic] ?? null) : null;
}

const deviceFilters = new Set<string>([`${t.rpcRequest}+`, t.attributes, `${t.attributesResponse}+`, `${t.rpcResponse}+`]);
const gatewayFilters = new Set<string>([t.gatewayRpc, t.gatewayAttributes, t.gatewayAttributesResponse]);

/**
 * Subscriptions a device may hold: its RPC requests, attribute updates/answers and client RPC
 * answers, in the v1 or the short form (short-topics.ts), and ThingsBoard's package topics.
 */
export function subscribeAllowed(filter: string, deviceType: DeviceType): boolean {
  const long = longTopicOf(filter);
  if (long !== null) return deviceFilters.has(long);
  return deviceFilters.has(filter) || packageFilters.has(filter) || (deviceType === 'GATEWAY' && gatewayFilters.has(filter));
}
