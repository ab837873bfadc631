/**
 * The device drawer's TCP access values (DeviceTcpFields.tsx) and the body fields they become
 * (server/contract/tcp-device.ts): an empty registration string is null (a generated code on create, the current one on edit), the
 * Modbus TCP target is sent only while its switch is on. Pure.
 */
import { ModbusTcpTargetSchema, type ModbusTcpTarget, type Registration, type RegistrationFormat } from '../../../server/contract/tcp-device.ts';

/** The form's TCP fields (flat, so each has its own rule and test id). */
export interface DeviceTcpValues {
  registrationFormat: RegistrationFormat;
  registration: string;
  modbusTcpEnabled: boolean;
  modbusTcpHost: string;
  modbusTcpPort: number | undefined;
}

/** Modbus TCP's registered port: what a new target starts with. */
export const MODBUS_TCP_PORT_DEFAULT = 502;

// The contract's host rule, read from its schema (one copy of the rule).
const hostSchema = ModbusTcpTargetSchema.properties.host as unknown as { pattern: string; maxLength: number };
const hostPattern = new RegExp(hostSchema.pattern);
export const MODBUS_TCP_HOST_MAX = hostSchema.maxLength;

/** A host the contract takes (IPv4 address or host name), after trimming. */
export function modbusTcpHostValid(value: unknown): boolean {
  const text = typeof value === 'string' ? value.trim() : '';
  return text.length > 0 && text.length <= MODBUS_TCP_HOST_MAX && hostPattern.test(text);
}

export function tcpValuesOf(device: { registration: Registration | null; modbusTcp: ModbusTcpTarget | null } | null): DeviceTcpValues {
  return {
    registrationFormat: device?.registration?.format ?? 'ASCII',
    registration: device?.registration?.value ?? '',
    modbusTcpEnabled: !!device?.modbusTcp,
    modbusTcpHost: device?.modbusTcp?.host ?? '',
    modbusTcpPort: device?.modbusTcp?.port ?? MODBUS_TCP_PORT_DEFAULT,
  };
}

/** The body's `registration` and `modbusTcp`; both null for a device of another transport. */
export function tcpBodyOf(values: Partial<DeviceTcpValues>, tcp: boolean): { registration: Registration | null; modbusTcp: ModbusTcpTarget | null } {
  const value = values.registration?.trim();
  const host = values.modbusTcpHost?.trim();
  return {
    registration: tcp && value ? { format: values.registrationFormat ?? 'ASCII', value } : null,
    modbusTcp: tcp && values.modbusTcpEnabled && host ? { host, port: values.modbusTcpPort ?? MODBUS_TCP_PORT_DEFAULT } : null,
  };
}
