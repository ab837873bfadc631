/** How devices reach this gateway (server/contract/device-access.ts), for the copy-paste commands the console shows. */
import { useEffect, useState } from 'react';
import { deviceAccessRoutes, GATEWAY_CERTIFICATE_FILE, type DeviceAccess } from '../../../server/contract/device-access.ts';
import { api } from '../../lib/api-client.ts';

export function loadDeviceAccess(): Promise<DeviceAccess> {
  return api(deviceAccessRoutes.info, { silent: true });
}

/** The TLS port's certificate (PEM) as a blob, fetched with the bearer token. */
export async function gatewayCertificate(): Promise<Blob> {
  return (await api(deviceAccessRoutes.certificate, { responseType: 'blob' })) as unknown as Blob;
}

/** The gateway's device ports once known; null while loading or when the call failed (callers fall back to the defaults). */
export function useDeviceAccess(): DeviceAccess | null {
  const [access, setAccess] = useState<DeviceAccess | null>(null);
  useEffect(() => {
    let live = true;
    loadDeviceAccess().then(
      (a) => live && setAccess(a),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, []);
  return access;
}

/**
 * The mosquitto_pub/mosquitto_sub options that reach this gateway: plain MQTT on its port, or over
 * TLS with the gateway's certificate pinned as the CA file.
 */
export function mosquittoConnection(host: string, access: DeviceAccess, tls = false): string {
  if (tls && access.mqttsPort !== null) return `-h ${host} -p ${access.mqttsPort} --cafile ${GATEWAY_CERTIFICATE_FILE} -u '<ACCESS_TOKEN>'`;
  return `-h ${host} -p ${access.mqttPort} -u '<ACCESS_TOKEN>'`;
}
