/**
 * A lone device with one message in flight, as most embedded MQTT stacks publish: each QoS 1
 * message leaves when the previous one's PUBACK came back, so its round trip is the rate the device
 * gets (1,000 ÷ p50 ms messages a second). The gateway's batching decides it: a fixed batch window
 * is paid by every message here.
 */
import type { MqttClient } from 'mqtt';
import { deviceTopics } from '../../server/contract/device-api.ts';

export interface LoneDeviceResult {
  /** PUBACK round trips in ms, in publishing order. */
  roundTrips: number[];
  /** Wall time of the whole run, ms. */
  ms: number;
}

/** Publishes `messages` 2-value messages one after another, each after the previous PUBACK. */
export async function loneDevice(client: MqttClient, messages: number): Promise<LoneDeviceResult> {
  const roundTrips: number[] = [];
  const started = performance.now();
  // A day back: the sustained run that follows counts the history values of its own time range.
  let ts = Date.now() - 86_400_000;
  for (let i = 0; i < messages; i++) {
    ts++;
    const payload = JSON.stringify({ ts, values: { temperature: Math.round(i % 1651) / 10 - 40, humidity: (i % 1000) / 10 } });
    const sent = performance.now();
    await client.publishAsync(deviceTopics.telemetry, payload, { qos: 1 });
    roundTrips.push(performance.now() - sent);
  }
  return { roundTrips, ms: performance.now() - started };
}
