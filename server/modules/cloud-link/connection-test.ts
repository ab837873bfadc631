/**
 * The configuration page's "test connection": one connection with the given settings, closed at
 * once, answered within 10 s with the broker's CONNACK code in words. A second client id suffix
 * keeps the test from kicking the gateway's live connection off the broker (same client id).
 */
import type { CloudConfig } from '../../contract/cloud.ts';
import { acceptedOutcome, closedOutcome, cloudClient, failureOutcome, loadCloudClient, timeoutOutcome, type ConnectOutcome } from './connect-outcome.ts';
import { CONNECT_TIMEOUT_MS } from './cloud-connection.ts';

export function testConnection(config: CloudConfig, clientId: string, timeoutMs = CONNECT_TIMEOUT_MS): Promise<ConnectOutcome> {
  return loadCloudClient().then(() => connectOnce(config, clientId, timeoutMs));
}

function connectOnce(config: CloudConfig, clientId: string, timeoutMs: number): Promise<ConnectOutcome> {
  return new Promise((resolve) => {
    // The answer must come inside timeoutMs: mqtt.js's own connect timeout only covers the CONNACK wait.
    const client = cloudClient(config, `${clientId}-test`, timeoutMs - 500);
    let done = false;
    const finish = (outcome: ConnectOutcome): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      client.removeAllListeners();
      client.on('error', () => {});
      client.end(true);
      resolve(outcome);
    };
    const timer = setTimeout(() => finish(timeoutOutcome()), timeoutMs);
    client.on('connect', () => finish(acceptedOutcome()));
    client.on('error', (err: Error & { code?: unknown }) => finish(failureOutcome(err)));
    client.on('close', () => finish(closedOutcome()));
  });
}
