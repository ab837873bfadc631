/**
 * Whether a connection that presented a device's registration may replace the device's live link.
 * The live link wins: a second connection with the same bytes (someone who copied them, or two DTUs
 * configured alike) must not silently take the DTU's polls. Two cases let the newcomer in: the
 * live link sent nothing for longer than its keepalive (a mobile link that died without a FIN, so
 * the DTU's reconnection is not locked out for good), and a newcomer from the live link's own host
 * (a DTU on a LAN that rebooted while its old socket lingers; whoever shares its host can read its
 * registration off the wire anyway).
 */
import type { TcpConnection } from './tcp-connections.ts';

export function mayTakeOver(live: TcpConnection | undefined, silentMs: number | undefined, host: string, keepaliveMs: number): boolean {
  if (!live || silentMs === undefined) return true;
  return live.remoteHost === host || silentMs >= keepaliveMs;
}
