/**
 * How devices reach this gateway: the MQTT ports actually bound (`--mqtt-port`, `--mqtts-port`,
 * which may differ from the defaults) and the certificate of the TLS port, which device makers
 * install as their CA file. The console builds its copy-paste commands from these.
 */
import Type, { type Static } from 'typebox';
import { ErrorBodySchema } from './errors.ts';
import { defineRoutes } from './route.ts';

export const DeviceAccessSchema = Type.Object({
  mqttPort: Type.Integer(),
  /** Null when MQTT over TLS is off (`--mqtts-port off`). */
  mqttsPort: Type.Union([Type.Integer(), Type.Null()]),
  /** SHA-256 fingerprint of the TLS port's certificate (`AB:CD:…`), null when TLS is off. */
  mqttsFingerprint: Type.Union([Type.String(), Type.Null()]),
});
export type DeviceAccess = Static<typeof DeviceAccessSchema>;

/** File name the certificate is downloaded as. */
export const GATEWAY_CERTIFICATE_FILE = 'gateway-mqtts.pem';

export const deviceAccessRoutes = defineRoutes({
  info: {
    method: 'GET',
    url: '/api/yt/device_access',
    schema: { tags: ['device-access'], summary: 'MQTT ports devices connect to', response: { 200: DeviceAccessSchema } },
    config: { access: 'user', permission: 'device_access:view' },
  },
  certificate: {
    method: 'GET',
    url: '/api/yt/device_access/certificate',
    schema: {
      tags: ['device-access'],
      summary: 'The certificate (PEM) of the MQTT over TLS port, for devices to pin as their CA file; 404 when TLS is off',
      response: { 404: ErrorBodySchema },
    },
    config: { access: 'user', permission: 'device_access:view' },
  },
});
