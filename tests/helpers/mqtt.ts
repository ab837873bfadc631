/**
 * Real MQTT clients against the app's embedded broker, closed after each test, and the small
 * waits device tests need (a condition that becomes true, not a timed sleep).
 */
import { connect, connectAsync, type IClientOptions, type MqttClient } from 'mqtt';
import { afterEach } from 'vitest';
import type { App } from '../../server/app.ts';
import { credentialsRoutes } from '../../server/contract/credentials.ts';
import type { ContractClient } from './devices.ts';

const clients: MqttClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.endAsync(true).catch(() => undefined)));
});

export function mqttUrl(app: App): string {
  if (!app.services?.transport) throw new Error('the app has no transport (proxy mode?)');
  return `mqtt://127.0.0.1:${app.services?.transport.mqttPort}`;
}

/** A connected client (no automatic reconnect), ended after the test. */
export async function connectDevice(app: App, options: IClientOptions): Promise<MqttClient> {
  const client = await connectAsync(mqttUrl(app), { reconnectPeriod: 0, connectTimeout: 5000, ...options });
  clients.push(client);
  return client;
}

/** A connection attempt that must fail: the error mqtt.js reports (its `code` is the CONNACK return code). */
export async function connectRefused(app: App, options: IClientOptions): Promise<Error & { code?: number }> {
  try {
    const client = await connectDevice(app, options);
    await client.endAsync(true);
  } catch (err) {
    return err as Error & { code?: number };
  }
  throw new Error('the connection was accepted');
}

/** The device's access token, read through the credentials API. */
export async function tokenOf(api: ContractClient, deviceId: string): Promise<string> {
  return (await api.ok(credentialsRoutes.get, { params: { id: deviceId } })).credentialsId;
}

/** Polls `probe` until `accept` holds (or fails after `timeoutMs` with the last value seen). */
export async function eventually<T>(probe: () => Promise<T> | T, accept: (value: T) => boolean, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (accept(value)) return value;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms; last value: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Resolves once `client` is closed by the other side. */
export function closedBy(client: MqttClient): Promise<void> {
  return new Promise((resolve) => {
    if (client.disconnected || !client.connected) resolve();
    client.once('close', () => resolve());
  });
}

/** A message a client received: its topic and its payload as text. */
export interface Received {
  topic: string;
  payload: string;
}

/**
 * As connectDevice, noting every message from the very first one (messages a persistent session
 * had queued arrive right after the CONNACK, before a listener added after connecting would see
 * them) and whether the broker said it had a session for the client (CONNACK session present).
 */
export async function connectWatching(app: App, options: IClientOptions): Promise<{ client: MqttClient; messages: Received[]; sessionPresent: boolean }> {
  const messages: Received[] = [];
  const client = connect(mqttUrl(app), { reconnectPeriod: 0, connectTimeout: 5000, ...options });
  clients.push(client);
  client.on('message', (topic, payload) => messages.push({ topic, payload: payload.toString('utf8') }));
  const sessionPresent = await new Promise<boolean>((resolve, reject) => {
    client.once('connect', (connack) => resolve(connack.sessionPresent));
    client.once('error', reject);
  });
  return { client, messages, sessionPresent };
}
