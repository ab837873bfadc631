/** Calls of network configuration (server/contract/network.ts). */
import {
  networkRoutes,
  type NetworkApplyResult,
  type NetworkPlan,
  type NetworkSettingsBody,
  type NetworkState,
  type WifiNetwork,
} from '../../../server/contract/network.ts';
import { api } from '../../lib/api-client.ts';

export function loadNetwork(): Promise<NetworkState> {
  return api(networkRoutes.get, { silent: true });
}

export function planNetwork(body: NetworkSettingsBody): Promise<NetworkPlan> {
  return api(networkRoutes.plan, { body, silent: true });
}

export function applyNetwork(body: NetworkSettingsBody, confirmWithinS: number): Promise<NetworkApplyResult> {
  return api(networkRoutes.apply, { body: { ...body, confirmWithinS }, silent: true });
}

export function confirmNetwork(applyId: string): Promise<{ confirmed: true }> {
  return api(networkRoutes.confirm, { body: { applyId }, silent: true });
}

export function scanWifi(): Promise<WifiNetwork[]> {
  return api(networkRoutes.wifiScan, { silent: true });
}
