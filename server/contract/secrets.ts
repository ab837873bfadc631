/**
 * Every field of an answer (HTTP or /api/ws) that carries a credential, and the permission a role
 * needs to read it; anyone else reads the redacted value (issue 24, #6). The audit of the response
 * schemas of server/contract, field by field:
 * - `provisionDeviceKey`, `provisionDeviceSecret` (product): with both, anyone provisions a device of
 *   the product with a token of their choice.
 * - `registration` (device, and a TCP device's link in the Modbus view): the bytes a DTU registers
 *   with on the TCP access port; whoever sends them takes the DTU's link.
 * - `edgeKey` (edge state, HTTP and EDGE_STATE): the gateway's key on the cloud, its access token
 *   when the cloud authenticates by token alone; `edgeSecret` has its own route behind the same permission.
 * Left out on purpose: a device's credentials (their own route, `device:credentials:view`), the
 * access tokens of a batch generation or an import (answered only to roles that create devices, all
 * of which hold `device:credentials:view`), the caller's own session tokens, and the cloud's
 * platform secret (never answered: `platformSecretSet`).
 */
import type { Permission } from './permissions.ts';

export interface SecretField {
  /** Who reads the value. */
  permission: Permission;
  /** What everyone else reads instead: null where the field may be null, '' where it may not. */
  redacted: null | '';
}

export const secretFields: Readonly<Record<string, SecretField>> = {
  provisionDeviceKey: { permission: 'device:credentials:view', redacted: null },
  provisionDeviceSecret: { permission: 'device:credentials:view', redacted: null },
  registration: { permission: 'device:credentials:view', redacted: null },
  edgeKey: { permission: 'edge:secret:view', redacted: '' },
};
