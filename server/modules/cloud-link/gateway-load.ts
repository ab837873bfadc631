/**
 * The gateway's own load, sent periodically as the gateway device's telemetry
 * (`v1/devices/me/telemetry`): CPU and memory use in percent, disk use of the data directory's
 * file system in percent, and device messages per second since the last report. Live only: a
 * reading missed while disconnected is not worth a backlog.
 */
import { statfsSync } from 'node:fs';
import { cpus, freemem, loadavg, totalmem } from 'node:os';

export const GATEWAY_TELEMETRY_TOPIC = 'v1/devices/me/telemetry';

export class GatewayLoad {
  private messages = 0;
  private since = Date.now();

  constructor(private readonly dataDir: string) {}

  messageReceived(): void {
    this.messages++;
  }

  /** One reading; resets the message count. */
  reading(now = Date.now()): Record<string, number> {
    const seconds = Math.max(1, (now - this.since) / 1000);
    const messageRate = Math.round((this.messages / seconds) * 100) / 100;
    this.messages = 0;
    this.since = now;
    const cores = Math.max(1, cpus().length);
    const cpu = Math.min(100, Math.round(((loadavg()[0] ?? 0) / cores) * 1000) / 10);
    const memory = Math.round((1 - freemem() / totalmem()) * 1000) / 10;
    let disk = 0;
    try {
      const fs = statfsSync(this.dataDir);
      disk = Math.round((1 - fs.bavail / fs.blocks) * 1000) / 10;
    } catch {
      // A data dir on a file system without statfs reports 0 rather than failing the reading.
    }
    return { cpu, memory, disk, messageRate };
  }
}
