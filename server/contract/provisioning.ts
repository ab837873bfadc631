/**
 * Device provisioning, ThingsBoard's device API (its "allow to create new devices" strategy): a
 * batch of devices flashed with one firmware holds a product's provision key and secret and asks
 * for its own credentials.
 *
 * HTTP `POST /api/v1/provision` (public) with ProvisionRequest; MQTT: a connection with user name
 * `provision` publishing the same JSON on `/provision/request` and reading `/provision/response`.
 * The answer is ThingsBoard's, with HTTP 200 whatever its status:
 * - `{ status: "SUCCESS", credentialsType: "ACCESS_TOKEN", credentialsValue: "<token>" }`;
 * - `{ status: "SUCCESS", credentialsType: "MQTT_BASIC", credentialsValue: { clientId, userName, password } }`;
 * - `{ status: "SUCCESS", credentialsType: "X509_CERTIFICATE", credentialsValue: "<the hash sent: the certificate or key PEM>" }`;
 * - `{ status: "NOT_FOUND", errorMsg: "Provision data was not found!" }`: no key or secret, no
 *   product with that key, a wrong secret, or provisioning turned off for the product;
 * - `{ status: "FAILURE", errorMsg: "Failed to provision device!" }`: a device of that name exists
 *   (each name is provisioned once), the name is blank or unprintable, the requested credentials
 *   are refused (taken, malformed), or the licence's device limit is reached.
 * Without `deviceName` the device gets a random 20-character name, as in ThingsBoard. The device is
 * created through the device module (INACTIVE, `device.created`), with the product's device type,
 * or GATEWAY when the request says `"gateway": true` (see below).
 *
 * Failed attempts (NOT_FOUND, the answers a guesser gets) are counted per source address: past
 * PROVISION_FAILURE_LIMIT in PROVISION_FAILURE_WINDOW_MS, HTTP answers 429 code 33
 * `error.provision.tooManyAttempts` with Retry-After (MQTT: status FAILURE with that text), even
 * for the right secret, until the oldest failure ages out. Malformed JSON or a wrong shape over HTTP
 * is 400 code 31 (ThingsBoard answers 500).
 */
import Type, { type Static } from 'typebox';
import { CredentialsTypeSchema, MQTT_FIELD_MAX, PEM_MAX } from './credentials.ts';
import { ErrorBodySchema } from './errors.ts';
import { defineRoutes } from './route.ts';

/** Failed provision attempts one address may make within PROVISION_FAILURE_WINDOW_MS. */
export const PROVISION_FAILURE_LIMIT = 10;
export const PROVISION_FAILURE_WINDOW_MS = 5 * 60 * 1000;
/** Generated provision keys and secrets: 20 characters of [a-z0-9], as ThingsBoard's. */
export const PROVISION_CREDENTIAL_LENGTH = 20;
/** The MQTT user name of a provisioning connection, and its topics (ThingsBoard's). */
export const PROVISION_MQTT_USER_NAME = 'provision';
export const provisionTopics = { request: '/provision/request', response: '/provision/response' } as const;

const Text = (maxLength: number) => Type.Optional(Type.String({ maxLength }));

export const ProvisionRequestSchema = Type.Object({
  provisionDeviceKey: Type.String({ maxLength: 256 }),
  provisionDeviceSecret: Type.String({ maxLength: 256 }),
  deviceName: Text(1024),
  /** Left out: ACCESS_TOKEN (a token of the device's own, or a generated one). */
  credentialsType: Type.Optional(CredentialsTypeSchema),
  /** ACCESS_TOKEN: the token to use (left out: generated). */
  token: Text(256),
  /** MQTT_BASIC: clientId or username, and a password if any. */
  clientId: Text(MQTT_FIELD_MAX),
  username: Text(MQTT_FIELD_MAX),
  password: Text(MQTT_FIELD_MAX),
  /** X509_CERTIFICATE: the device's certificate or RSA public key in PEM (ThingsBoard calls it hash). */
  hash: Text(PEM_MAX),
  /**
   * ThingsBoard's flag for a gateway device (the IoT Gateway and the SDK send it): the new device
   * is a GATEWAY when the product's type is DIRECT_CONNECTION or GATEWAY; FAILURE on a SENSOR
   * product (a sub-device cannot speak for others).
   */
  gateway: Type.Optional(Type.Boolean()),
});
export type ProvisionRequest = Static<typeof ProvisionRequestSchema>;

export const ProvisionMqttBasicSchema = Type.Object({
  clientId: Type.Union([Type.String(), Type.Null()]),
  userName: Type.Union([Type.String(), Type.Null()]),
  password: Type.Union([Type.String(), Type.Null()]),
});

export const ProvisionAnswerSchema = Type.Union([
  Type.Object({
    status: Type.Literal('SUCCESS'),
    credentialsType: CredentialsTypeSchema,
    credentialsValue: Type.Union([Type.String(), ProvisionMqttBasicSchema]),
  }),
  Type.Object({ status: Type.Union([Type.Literal('NOT_FOUND'), Type.Literal('FAILURE')]), errorMsg: Type.String() }),
]);
export type ProvisionAnswer = Static<typeof ProvisionAnswerSchema>;

/** ThingsBoard's texts of the two failures (JsonConverter), which clients may log or compare. */
export const PROVISION_NOT_FOUND_MSG = 'Provision data was not found!';
export const PROVISION_FAILURE_MSG = 'Failed to provision device!';

export const provisionRoutes = defineRoutes({
  provision: {
    method: 'POST',
    url: '/api/v1/provision',
    schema: {
      tags: ['device-api'],
      summary: "A device asks for its credentials with its product's provision key and secret (ThingsBoard's answers, HTTP 200)",
      body: ProvisionRequestSchema,
      response: { 200: ProvisionAnswerSchema, 400: ErrorBodySchema, 429: ErrorBodySchema },
    },
    config: { access: 'public' },
  },
});
