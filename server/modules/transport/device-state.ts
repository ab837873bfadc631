/**
 * Which devices are connected, from every source at once: MQTT sessions (gone when the socket or
 * its keepalive ends), HTTP device API calls (gone after the inactivity timeout unless a long poll
 * is open) and gateways speaking for their sub-devices. A device is ONLINE while any source holds
 * it; each flip is announced as `device.stateChanged` (the device module stores it).
 */
import type { Announce } from '../../lib/event-bus.ts';

export class DeviceStateTracker {
  private readonly mqtt = new Map<string, number>();
  private readonly httpSeen = new Map<string, number>();
  private readonly httpOpen = new Map<string, number>();
  /** Sub-device → the gateway that connected it. */
  private readonly viaGateway = new Map<string, string>();
  private readonly online = new Set<string>();
  /** Devices held ONLINE by another module's link (the TCP access server, the Modbus master). */
  private readonly links = new Set<string>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    private readonly announce: Announce,
    private readonly httpInactivityMs: number,
  ) {
    // Sweeping a few times per timeout bounds how late an idle HTTP device is marked OFFLINE.
    const every = Math.max(10, Math.min(Math.floor(httpInactivityMs / 4), 10_000));
    this.sweeper = setInterval(() => this.sweep(Date.now()), every).unref();
  }

  isOnline(deviceId: string): boolean {
    return this.online.has(deviceId);
  }

  mqttOpened(deviceId: string): void {
    this.mqtt.set(deviceId, (this.mqtt.get(deviceId) ?? 0) + 1);
    this.update(deviceId);
  }

  mqttClosed(deviceId: string): void {
    const n = (this.mqtt.get(deviceId) ?? 0) - 1;
    if (n > 0) this.mqtt.set(deviceId, n);
    else this.mqtt.delete(deviceId);
    this.update(deviceId);
  }

  /** An HTTP call started: the device is active at least until it ends. */
  httpStarted(deviceId: string): void {
    this.httpOpen.set(deviceId, (this.httpOpen.get(deviceId) ?? 0) + 1);
    this.httpSeen.set(deviceId, Date.now());
    this.update(deviceId);
  }

  httpEnded(deviceId: string): void {
    const n = (this.httpOpen.get(deviceId) ?? 0) - 1;
    if (n > 0) this.httpOpen.set(deviceId, n);
    else this.httpOpen.delete(deviceId);
    if (this.httpSeen.has(deviceId)) this.httpSeen.set(deviceId, Date.now());
  }

  gatewayConnected(deviceId: string, gatewayId: string): void {
    this.viaGateway.set(deviceId, gatewayId);
    this.update(deviceId);
  }

  gatewayDisconnected(deviceId: string): void {
    this.viaGateway.delete(deviceId);
    this.update(deviceId);
  }

  /** Another module's link to the device holds it ONLINE (`held`) or no longer does. */
  linkHeld(deviceId: string, held: boolean): void {
    if (held) this.links.add(deviceId);
    else this.links.delete(deviceId);
    this.update(deviceId);
  }

  /** The gateway that connected `deviceId`, if it did. */
  gatewayOf(deviceId: string): string | undefined {
    return this.viaGateway.get(deviceId);
  }

  /** A gateway went away: the sub-devices it connected go with it. */
  gatewayGone(gatewayId: string): void {
    for (const [deviceId, via] of this.viaGateway) if (via === gatewayId) this.gatewayDisconnected(deviceId);
  }

  /** A deleted device: dropped without an announcement (there is no row to update). */
  forget(deviceId: string): void {
    this.mqtt.delete(deviceId);
    this.httpSeen.delete(deviceId);
    this.httpOpen.delete(deviceId);
    this.viaGateway.delete(deviceId);
    this.links.delete(deviceId);
    this.gatewayGone(deviceId);
    this.online.delete(deviceId);
  }

  /** HTTP devices silent for the inactivity timeout, with no call open, are no longer held. */
  sweep(now: number): void {
    for (const [deviceId, seen] of this.httpSeen) {
      if (now - seen >= this.httpInactivityMs && !this.httpOpen.has(deviceId)) {
        this.httpSeen.delete(deviceId);
        this.update(deviceId);
      }
    }
  }

  close(): void {
    clearInterval(this.sweeper);
  }

  private update(deviceId: string): void {
    const held = this.mqtt.has(deviceId) || this.httpSeen.has(deviceId) || this.viaGateway.has(deviceId) || this.links.has(deviceId);
    if (held === this.online.has(deviceId)) return;
    if (held) this.online.add(deviceId);
    else this.online.delete(deviceId);
    this.announce('device.stateChanged', { deviceId, state: held ? 'ONLINE' : 'OFFLINE', ts: Date.now() });
  }
}
