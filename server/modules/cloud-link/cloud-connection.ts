/**
 * The gateway's one MQTT connection to the cloud: connects with the stored configuration,
 * reconnects with exponential backoff (1 s doubling to 60 s, each wait drawn between half and all
 * of it so a fleet that lost the cloud together does not return together), and starts over at once
 * when the configuration is saved. Status and the last failure feed the edge state.
 */
import type { MqttClient } from 'mqtt';
import type { FastifyBaseLogger } from 'fastify';
import type { CloudConfig } from '../../contract/cloud.ts';
import type { EdgeStatus } from '../../contract/cloud-link.ts';
import { acceptedOutcome, closedOutcome, cloudClient, cloudClientLoaded, failureOutcome, loadCloudClient, type ConnectOutcome } from './connect-outcome.ts';

export interface BackoffOptions {
  minMs: number;
  maxMs: number;
}

export interface ConnectionListener {
  /** A CONNACK accepted the gateway: subscribe, then send what is owed. */
  connected(client: MqttClient): void;
  /** The connection is gone: what was in flight will be sent again on the next one. */
  disconnected(): void;
  /** Status, times or the last error changed. */
  changed(): void;
}

export const CONNECT_TIMEOUT_MS = 10_000;

/** The wait before attempt `failures + 1`: exponential, capped, with jitter. */
export function backoffDelay(failures: number, { minMs, maxMs }: BackoffOptions, random = Math.random): number {
  const full = Math.min(maxMs, minMs * 2 ** Math.min(failures, 30));
  return Math.round(full / 2 + (random() * full) / 2);
}

export class CloudConnection {
  status: EdgeStatus = 'NOT_CONFIGURED';
  lastError: ConnectOutcome | null = null;
  lastConnectTime: number | null = null;
  lastDisconnectTime: number | null = null;
  private client: MqttClient | null = null;
  private config: CloudConfig | null = null;
  private failures = 0;
  private retryTimer: NodeJS.Timeout | null = null;
  private closed = false;
  private loadingClient = false;

  constructor(
    private readonly deps: { clientId: string; backoff: BackoffOptions; log: FastifyBaseLogger; listener: ConnectionListener },
  ) {}

  /** Connects with `config` (dropping any current connection), or stays idle when null. */
  configure(config: CloudConfig | null): void {
    this.config = config;
    this.failures = 0;
    this.lastError = null;
    this.drop();
    if (!config) {
      this.setStatus('NOT_CONFIGURED');
      return;
    }
    this.attempt();
  }

  close(): void {
    this.closed = true;
    this.drop();
  }

  private attempt(): void {
    const config = this.config;
    if (!config || this.closed) return;
    this.retryTimer = null;
    this.setStatus('CONNECTING');
    if (!cloudClientLoaded()) {
      // mqtt.js is loaded with the first configured cloud, not at every start (connect-outcome.ts);
      // the attempt goes on with whatever configuration is current by then.
      if (!this.loadingClient) {
        this.loadingClient = true;
        void loadCloudClient().then(
          () => {
            this.loadingClient = false;
            this.attempt();
          },
          (err: unknown) => {
            this.loadingClient = false;
            this.lastError = failureOutcome(err as Error);
            this.setStatus('DISCONNECTED');
            this.scheduleRetry();
          },
        );
      }
      return;
    }
    let client: MqttClient;
    try {
      client = cloudClient(config, this.deps.clientId, CONNECT_TIMEOUT_MS);
    } catch (err) {
      // A client that cannot even be made (bad options) is one more failed attempt, never a crash.
      this.lastError = failureOutcome(err as Error);
      this.setStatus('DISCONNECTED');
      this.scheduleRetry();
      return;
    }
    this.client = client;
    let up = false;
    client.on('connect', () => {
      if (this.client !== client) return;
      up = true;
      this.failures = 0;
      this.lastError = null;
      this.lastConnectTime = Date.now();
      this.setStatus('CONNECTED');
      this.deps.log.info({ host: config.platformAddress, port: config.platformPort }, 'cloud connected');
      this.deps.listener.connected(client);
    });
    client.on('error', (err: Error & { code?: unknown }) => {
      if (this.client !== client) return;
      this.lastError = failureOutcome(err);
      this.deps.log.warn({ err: err.message, code: err.code }, 'cloud connection failed');
    });
    client.on('close', () => {
      if (this.client !== client) return;
      this.client = null;
      client.removeAllListeners();
      client.on('error', () => {});
      client.end(true);
      if (up) {
        this.lastDisconnectTime = Date.now();
        this.lastError ??= closedOutcome();
        this.deps.listener.disconnected();
      } else {
        this.lastError ??= closedOutcome();
      }
      this.setStatus('DISCONNECTED');
      this.scheduleRetry();
    });
  }

  private scheduleRetry(): void {
    if (this.closed || !this.config) return;
    const wait = backoffDelay(this.failures++, this.deps.backoff);
    this.retryTimer = setTimeout(() => this.attempt(), wait);
    this.retryTimer.unref();
  }

  private drop(): void {
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    const client = this.client;
    if (!client) return;
    this.client = null;
    client.removeAllListeners();
    client.on('error', () => {});
    client.end(true);
    if (this.status === 'CONNECTED') {
      this.lastDisconnectTime = Date.now();
      this.deps.listener.disconnected();
    }
  }

  private setStatus(status: EdgeStatus): void {
    this.status = status;
    this.deps.listener.changed();
  }

  /** Accepted outcome text, for the state page's tooltip when all is well. */
  static accepted(): ConnectOutcome {
    return acceptedOutcome();
  }
}
