/**
 * ThingsBoard's short device topics (its MqttTopics "v2 topics": `v2/t`, `v2/a`, `v2/a/req/`,
 * `v2/a/res/`, `v2/r/req/`, `v2/r/res/`), which carry the same JSON as the `v1/devices/me/...`
 * topics they stand for. The broker reads a short publish as its v1 topic and answers on the short
 * form; a server message goes out on the short form to a session that subscribed only the short
 * filter (ThingsBoard keeps one topic type per session the same way). The firmware and software
 * chunk requests (`v2/fw/request/{id}/chunk/{n}`) are recognised here; see the broker for the answer.
 */
import { deviceTopics as t } from '../../contract/device-api.ts';

/** v1 topic (exact) or prefix (ending in `/`) → its short form. */
const SHORT: readonly (readonly [string, string])[] = [
  [t.telemetry, 'v2/t'],
  [t.attributes, 'v2/a'],
  [t.attributesRequest, 'v2/a/req/'],
  [t.attributesResponse, 'v2/a/res/'],
  [t.rpcRequest, 'v2/r/req/'],
  [t.rpcResponse, 'v2/r/res/'],
];

function translate(topic: string, from: 0 | 1): string | null {
  const to = from === 0 ? 1 : 0;
  for (const pair of SHORT) {
    const prefix = pair[from];
    if (prefix.endsWith('/') ? topic.startsWith(prefix) && topic.length > prefix.length : topic === prefix) {
      return pair[to] + topic.slice(prefix.length);
    }
  }
  return null;
}

/** The v1 topic (or filter) a short one stands for; null when `topic` is not a short topic. */
export function longTopicOf(topic: string): string | null {
  return topic.startsWith('v2/') ? translate(topic, 1) : null;
}

/** The short form of a v1 device topic (or filter); null when it has none (gateway topics). */
export function shortTopicOf(topic: string): string | null {
  return translate(topic, 0);
}

/** A firmware or software chunk request, ThingsBoard's `v2/fw|sw/request/{requestId}/chunk/{n}`. */
export interface PackageRequest {
  kind: 'fw' | 'sw';
  requestId: string;
  chunk: number;
}

export function packageRequest(topic: string): PackageRequest | null {
  const match = /^v2\/(fw|sw)\/request\/(\d{1,10})\/chunk\/(\d{1,9})$/.exec(topic);
  return match ? { kind: match[1] as 'fw' | 'sw', requestId: match[2]!, chunk: Number(match[3]) } : null;
}

/** Where ThingsBoard answers chunk `chunk` of package request `requestId`. */
export function packageResponseTopic({ kind, requestId, chunk }: PackageRequest): string {
  return `v2/${kind}/response/${requestId}/chunk/${chunk}`;
}

/** Where ThingsBoard tells a device its package request failed. */
export function packageErrorTopic(kind: 'fw' | 'sw'): string {
  return `v2/${kind}/error`;
}

/** ThingsBoard's status text for a device with no package assigned (its ResponseStatus). */
export const PACKAGE_NOT_FOUND = 'NOT_FOUND';
/** ThingsBoard's status text for a chunk bigger than its MQTT transport's largest payload. */
export const PACKAGE_TOO_LARGE = 'PAYLOAD_TOO_LARGE';

/**
 * The package topics a device may subscribe to. `v2/fw/response/+` is what ThingsBoard's Python SDK
 * subscribes (it matches no chunk topic by MQTT's rules; ThingsBoard sends the chunks all the same).
 */
export const packageFilters: ReadonlySet<string> = new Set(['fw', 'sw'].flatMap((k) => [`v2/${k}/response/+/chunk/+`, `v2/${k}/response/+`, `v2/${k}/error`]));
