/**
 * What the TCP access port allows a connection that has not registered yet, so that neither
 * guessing registrations nor opening silent sockets gets anywhere: a window to register in, a cap
 * per address and in total (from the open-file limit, as the HTTP port's, server/plugins/http-guard.ts),
 * a per-address limit of failed registrations, and how long a registered link may stay silent
 * before a second connection with its registration may take its place.
 */
import { TCP_IDENTIFY_TIMEOUT_MS } from '../../contract/modbus.ts';

export interface TcpAccessLimits {
  /** A connection not registered within this long is closed (and counted as a failed registration). */
  identifyTimeoutMs: number;
  /**
   * A registered link that sent nothing for this long no longer holds its registration against a
   * newcomer from another address: a DTU whose mobile link died without a FIN gets back in.
   */
  keepaliveMs: number;
  /** Unregistered connections one address may hold at once; the next is closed as it arrives. */
  unregisteredPerAddress: number;
  /** The soft open-file limit; null reads the process's own (no total cap where it cannot be read). */
  openFileLimit: number | null;
  /** Failed registrations an address may make within `failureWindowMs`; past it its connections are closed at once. */
  failureLimit: number;
  failureWindowMs: number;
}

declare module '../../module.ts' {
  interface Tuning {
    /** Tests shorten the windows and lower the caps of the TCP access port. */
    tcp?: Partial<TcpAccessLimits>;
  }
}

/**
 * The numbers. A DTU registers with its first packet, so an address holds an unregistered
 * connection for a moment only; a carrier NAT with many DTUs behind it still fits in 8. 20
 * failures a minute let a misconfigured DTU retry every few seconds without locking its neighbours
 * behind the same NAT out, and give a guesser 28,800 tries a day per address against the 10^31
 * registration codes the gateway generates (server/modules/device/registration-code.ts).
 */
export const TCP_ACCESS_LIMITS: TcpAccessLimits = {
  identifyTimeoutMs: TCP_IDENTIFY_TIMEOUT_MS,
  keepaliveMs: 120_000,
  unregisteredPerAddress: 8,
  openFileLimit: null,
  failureLimit: 20,
  failureWindowMs: 60_000,
};

/** Files kept for everything but connections (database, logs, listening sockets), as http-guard.ts keeps. */
const RESERVED_FILES = 64;
/**
 * The share of the remaining files that unregistered TCP connections may hold; HTTP has 25%, so
 * MQTT devices, registered DTUs and the console keep at least 65% whatever the TCP port receives.
 * With the common soft limit of 1,024 files this allows 96.
 */
const UNREGISTERED_SHARE_OF_FILES = 0.1;
/** However low the open-file limit, DTUs can still register. */
const MIN_UNREGISTERED = 8;

/** Unregistered connections the port may hold at once for an open-file limit; null (no cap) when it is unknown. */
export function unregisteredBudget(fileLimit: number | null): number | null {
  if (fileLimit === null) return null;
  return Math.max(MIN_UNREGISTERED, Math.floor((fileLimit - RESERVED_FILES) * UNREGISTERED_SHARE_OF_FILES));
}
