/**
 * The MQTT return and reason codes the device transport sends, in one place: MQTT 3.1/3.1.1 CONNACK
 * return codes, MQTT 5 reason codes (the MQTT 5 specification's reason code tables, section 2.4),
 * and the one table that says which MQTT 5 PUBACK reason a refused device message gets.
 */
import type { ErrorKey } from '../../contract/errors.ts';

/** MQTT 3.1/3.1.1 CONNACK return codes. */
export const ConnackV3 = {
  accepted: 0,
  unacceptableProtocol: 1,
  identifierRejected: 2,
  notAuthorized: 5,
} as const;

/** MQTT 5 reason codes the transport uses. */
export const Reason = {
  success: 0x00,
  grantedQos1: 0x01,
  /** DISCONNECT from the client: publish my will all the same. */
  disconnectWithWill: 0x04,
  unspecified: 0x80,
  protocolError: 0x82,
  implementationSpecificError: 0x83,
  unsupportedProtocolVersion: 0x84,
  clientIdentifierNotValid: 0x85,
  badUserNameOrPassword: 0x86,
  notAuthorized: 0x87,
  serverShuttingDown: 0x8b,
  keepAliveTimeout: 0x8d,
  sessionTakenOver: 0x8e,
  topicFilterInvalid: 0x8f,
  /** A PUBLISH naming a topic alias: this server allows none (Topic Alias Maximum 0). */
  topicAliasInvalid: 0x94,
  packetTooLarge: 0x95,
  quotaExceeded: 0x97,
  payloadFormatInvalid: 0x99,
} as const;

/** MQTT 3.1.1 SUBACK "failure". */
export const SUBACK_FAILURE_V3 = 0x80;

/**
 * PUBACK reason of a message refused for its content (a PayloadRefusal key of
 * server/lib/device-payload.ts and gateway-messages.ts). A refusal for the amount of
 * data is a quota; a gateway naming a device it does not serve is not authorized; every other key
 * (malformed JSON, wrong shape, reserved key, too deep, bad timestamp…) is a payload format error,
 * the default, so that a key added later still gets a meaningful reason.
 */
const refusalReasons: Partial<Record<ErrorKey, number>> = {
  'error.transport.payloadTooLarge': Reason.quotaExceeded,
  'error.transport.gatewayForeignDevice': Reason.notAuthorized,
  'error.transport.gatewayUnknownDevice': Reason.notAuthorized,
  // Low free disk (server/modules/telemetry/disk-guard.ts, server/lib/disk-full.ts): the message was fine, the gateway has no room.
  'error.telemetry.diskFull': Reason.quotaExceeded,
  // The database file was deleted under the gateway (server/lib/database-file-watch.ts): a fault of the gateway, not of the message.
  'error.storage.databaseLost': Reason.implementationSpecificError,
};

export function refusalReason(key: ErrorKey): number {
  return refusalReasons[key] ?? Reason.payloadFormatInvalid;
}
