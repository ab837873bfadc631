/**
 * Device credentials (`/api/yt/device/{id}/credentials`), ThingsBoard's shape
 * `{ credentialsType, credentialsId, credentialsValue }`.
 *
 * The console's credential kinds are NAME, ACCESS_TOKEN, X509, MQTT_CLIENT_ID, MQTT_USER_NAME and
 * MQTT_PASSWORD, with fields type, access token, RSA public key, client ID, user name, password.
 * They map onto three credentialsType values (ThingsBoard's):
 * - ACCESS_TOKEN: `credentialsId` is the token (the MQTT user name / HTTP path segment the device
 *   presents). Generated as 20 characters [A-Za-z0-9]; a user may set their own of 1–64 URL-safe
 *   characters. Unique across devices (`error.credentials.tokenTaken`).
 * - X509_CERTIFICATE (the X509 kind): `credentialsValue` is the device's RSA public key in PEM
 *   (`-----BEGIN PUBLIC KEY-----`, `-----BEGIN RSA PUBLIC KEY-----`, or a certificate whose key is
 *   taken), answered back as SPKI PEM; `credentialsId` is the sha256 hex of its DER (SPKI)
 *   encoding, computed by the server and unique (`error.credentials.certificateTaken`). Not a key
 *   (`error.credentials.pemInvalid`), a private key (same) or not RSA (`error.credentials.notRsa`)
 *   is refused.
 * - MQTT_BASIC (kinds MQTT_CLIENT_ID, MQTT_USER_NAME, MQTT_PASSWORD): `credentialsValue` is the JSON
 *   text of MqttBasicValue `{ clientId?, userName?, password? }`, clientId or userName required
 *   (`error.credentials.mqttIdentityRequired`); each unique among MQTT_BASIC credentials
 *   (`error.credentials.clientIdTaken`, `error.credentials.userNameTaken`), and a userName may not
 *   equal another device's access token. The password is stored as an scrypt hash the broker
 *   verifies and is never returned: GET answers MqttBasicView `{ clientId, userName, passwordSet }`
 *   as JSON text. On PUT a left-out password keeps the stored one, null removes it.
 *   `credentialsId` is the sha256 hex of `clientId|userName`.
 * NAME is not a credential of its own: the device name identifies the device, never authenticates it.
 *
 * Clients written to the spec send its names: PUT accepts X509 for X509_CERTIFICATE and
 * MQTT_CLIENT_ID, MQTT_USER_NAME or MQTT_PASSWORD for MQTT_BASIC (same credentialsValue), and
 * stores ours; every answer carries `specTypes`, the spec's names of what is set (ACCESS_TOKEN;
 * X509; MQTT_CLIENT_ID, MQTT_USER_NAME and MQTT_PASSWORD for the parts of MQTT_BASIC that are set).
 * NAME is refused as any unknown type is (docs/API.md has the table).
 * Every change emits `device.credentialsChanged` so the MQTT transport drops old sessions.
 */
import Type, { type Static } from 'typebox';
import { defineRoutes } from './route.ts';
import { ErrorBodySchema } from './errors.ts';
import { EpochMs, IdParamsSchema, Nullable } from './common.ts';

export const credentialsTypes = ['ACCESS_TOKEN', 'X509_CERTIFICATE', 'MQTT_BASIC'] as const;
export const CredentialsTypeSchema = Type.Enum(credentialsTypes);
export type CredentialsType = (typeof credentialsTypes)[number];

/** The spec's credential type names (console-spec, device credentials), NAME left out (see above). */
export const specCredentialsTypes = ['ACCESS_TOKEN', 'X509', 'MQTT_CLIENT_ID', 'MQTT_USER_NAME', 'MQTT_PASSWORD'] as const;
export type SpecCredentialsType = (typeof specCredentialsTypes)[number];

/** Our credentialsType of each spec name. */
export const credentialsTypeOfSpec: Record<SpecCredentialsType, CredentialsType> = {
  ACCESS_TOKEN: 'ACCESS_TOKEN',
  X509: 'X509_CERTIFICATE',
  MQTT_CLIENT_ID: 'MQTT_BASIC',
  MQTT_USER_NAME: 'MQTT_BASIC',
  MQTT_PASSWORD: 'MQTT_BASIC',
};

/** What a PUT may name: ours, or the spec's. */
export const credentialsTypeInputs = [...credentialsTypes, ...specCredentialsTypes.filter((t) => t !== 'ACCESS_TOKEN')] as const;
export type CredentialsTypeInput = CredentialsType | SpecCredentialsType;

/** Our credentialsType of a PUT's type, whichever name it used. */
export function canonicalCredentialsType(type: CredentialsTypeInput): CredentialsType {
  return (credentialsTypes as readonly string[]).includes(type) ? (type as CredentialsType) : credentialsTypeOfSpec[type as SpecCredentialsType];
}

/** Generated access tokens: 20 characters of [A-Za-z0-9]. */
export const ACCESS_TOKEN_LENGTH = 20;
/** Tokens a user sets: 1–64 URL-safe characters (the token is a path segment of the HTTP device API). */
export const ACCESS_TOKEN_PATTERN = '^[A-Za-z0-9._~-]{1,64}$';
export const MQTT_FIELD_MAX = 128;
export const PEM_MAX = 16 * 1024;

export const DeviceCredentialsSchema = Type.Object({
  credentialsType: CredentialsTypeSchema,
  /** ACCESS_TOKEN: the token; X509_CERTIFICATE: key fingerprint; MQTT_BASIC: sha256 of clientId|userName. */
  credentialsId: Type.String(),
  /** X509_CERTIFICATE: the PEM; MQTT_BASIC: JSON text of MqttBasicView; ACCESS_TOKEN: null. */
  credentialsValue: Nullable(Type.String()),
  /** The spec's names of what is set (see above). */
  specTypes: Type.Array(Type.Enum(specCredentialsTypes)),
  updatedTime: EpochMs,
});
export type DeviceCredentials = Static<typeof DeviceCredentialsSchema>;

/**
 * PUT body. credentialsId is read only for ACCESS_TOKEN (left out: a new token is generated).
 * credentialsType may be the spec's name (canonicalCredentialsType).
 */
export const DeviceCredentialsBodySchema = Type.Object(
  {
    credentialsType: Type.Enum(credentialsTypeInputs),
    credentialsId: Type.Optional(Nullable(Type.String({ maxLength: 256 }))),
    credentialsValue: Type.Optional(Nullable(Type.String({ maxLength: PEM_MAX }))),
  },
  { additionalProperties: false },
);
export type DeviceCredentialsBody = Static<typeof DeviceCredentialsBodySchema>;
/** A PUT body with our credentialsType (what the server stores). */
export type CredentialsWrite = Omit<DeviceCredentialsBody, 'credentialsType'> & { credentialsType: CredentialsType };

/**
 * What MQTT_BASIC's credentialsValue holds on PUT (as JSON text). `passwordSet` is accepted and
 * ignored, so a GET answer can be sent back as it is (keeping the stored password).
 */
export const MqttBasicValueSchema = Type.Object(
  {
    clientId: Type.Optional(Nullable(Type.String({ maxLength: MQTT_FIELD_MAX }))),
    userName: Type.Optional(Nullable(Type.String({ maxLength: MQTT_FIELD_MAX }))),
    password: Type.Optional(Nullable(Type.String({ maxLength: MQTT_FIELD_MAX }))),
    passwordSet: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type MqttBasicValue = Static<typeof MqttBasicValueSchema>;

/** What MQTT_BASIC's credentialsValue holds on GET (as JSON text): the password never leaves. */
export const MqttBasicViewSchema = Type.Object({
  clientId: Nullable(Type.String()),
  userName: Nullable(Type.String()),
  passwordSet: Type.Boolean(),
});
export type MqttBasicView = Static<typeof MqttBasicViewSchema>;

const tags = ['device-credentials'];
const errors = { 400: ErrorBodySchema, 401: ErrorBodySchema, 404: ErrorBodySchema };

export const credentialsRoutes = defineRoutes({
  get: {
    method: 'GET',
    url: '/api/yt/device/:id/credentials',
    schema: {
      tags,
      summary: "A device's credentials (for ACCESS_TOKEN, credentialsId is the token)",
      params: IdParamsSchema,
      response: { 200: DeviceCredentialsSchema, ...errors },
    },
    config: { access: 'user', permission: 'device:credentials:view', deviceParam: 'id' },
  },
  update: {
    method: 'PUT',
    url: '/api/yt/device/:id/credentials',
    schema: {
      tags,
      summary: "Replace a device's credentials (ACCESS_TOKEN, X509_CERTIFICATE or MQTT_BASIC)",
      params: IdParamsSchema,
      body: DeviceCredentialsBodySchema,
      response: { 200: DeviceCredentialsSchema, ...errors },
    },
    config: { access: 'user', permission: 'device:credentials:update', deviceParam: 'id' },
  },
  regenerate: {
    method: 'POST',
    url: '/api/yt/device/:id/credentials/regenerate',
    schema: {
      tags,
      summary: 'Replace the credentials with a new generated ACCESS_TOKEN (the old one stops working)',
      params: IdParamsSchema,
      response: { 200: DeviceCredentialsSchema, ...errors },
    },
    config: { access: 'user', permission: 'device:credentials:update', deviceParam: 'id' },
  },
});
