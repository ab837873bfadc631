/**
 * Fields TCP products and devices carry for the TCP access server and the Modbus master
 * (server/contract/modbus.ts): the product's polling period and gap bridging, the device's
 * registration string and Modbus TCP target. Product and device contracts add them to their
 * bodies; this file holds them so neither contract has to import the other's.
 *
 * Product (`pollIntervalMs`, `modbusGapMax`): left out of a body means the default; both are kept
 * for any transport but only used by TCP MODBUS_RTU products.
 * Device (`registration`, `modbusTcp`): `registration` left out or null on create gives a device of
 * a TCP product a generated 20-character code (never its access token, which works on MQTT and HTTP
 * too); on an edit it keeps the current one. Changing it takes `device:credentials:update` (403
 * code 20 otherwise), as changing the access token does. A
 * value not matching its format is `error.device.registration`, one another device uses is
 * `error.device.registrationTaken` (400 code 31). `modbusTcp` set: the gateway dials the device
 * (Modbus TCP, unit id = address code, 01 when unset) instead of waiting for a DTU.
 */
import Type, { type Static } from 'typebox';

export const POLL_INTERVAL_MIN_MS = 100;
export const POLL_INTERVAL_MAX_MS = 3_600_000;
export const POLL_INTERVAL_DEFAULT_MS = 5_000;
/** Largest gap of unused registers a request may bridge (`modbusGapMax` range 0–MODBUS_GAP_MAX). */
export const MODBUS_GAP_MAX = 100;
export const MODBUS_GAP_DEFAULT = 8;
export const TCP_PORT_DEFAULT = 8900;

export const PollIntervalSchema = Type.Integer({ minimum: POLL_INTERVAL_MIN_MS, maximum: POLL_INTERVAL_MAX_MS });
export const ModbusGapMaxSchema = Type.Integer({ minimum: 0, maximum: MODBUS_GAP_MAX });

/** How a device's registration string is written: printable ASCII, or hex digit pairs. */
export const registrationFormats = ['ASCII', 'HEX'] as const;
export const RegistrationFormatSchema = Type.Enum(registrationFormats);
export type RegistrationFormat = (typeof registrationFormats)[number];
/** Registration strings are 1–64 bytes. */
export const REGISTRATION_MAX_BYTES = 64;
export const REGISTRATION_ASCII_PATTERN = '^[\\x20-\\x7E]{1,64}$';
/** Hex digit pairs, spaces between pairs allowed (stored upper case without them). */
export const REGISTRATION_HEX_PATTERN = '^\\s*[0-9A-Fa-f]{2}(\\s*[0-9A-Fa-f]{2}){0,63}\\s*$';

/** A device's own registration string (device field `registration`). */
export const RegistrationSchema = Type.Object(
  {
    format: RegistrationFormatSchema,
    value: Type.String({ minLength: 1, maxLength: 200 }),
  },
  { additionalProperties: false },
);
export type Registration = Static<typeof RegistrationSchema>;

/** A Modbus TCP device the gateway dials (device field `modbusTcp`). */
export const ModbusTcpTargetSchema = Type.Object(
  {
    /** IPv4 address or host name. */
    host: Type.String({ minLength: 1, maxLength: 255, pattern: '^[A-Za-z0-9._\\-]+$' }),
    port: Type.Integer({ minimum: 1, maximum: 65535 }),
  },
  { additionalProperties: false },
);
export type ModbusTcpTarget = Static<typeof ModbusTcpTargetSchema>;
