/**
 * The device transport: the MQTT broker (plain and TLS) and the HTTP device API, device
 * connection state, and server RPC delivery. Ports open in `start`, after every module is built.
 */
import type { DeviceState } from '../../contract/device.ts';
import { defineModule } from '../../module.ts';
import { registerDeviceAccessRoutes } from './device-access-routes.ts';
import { registerDeviceApiRoutes } from './device-api-routes.ts';
import { DeviceTransport, type TransportOptions } from './transport.ts';

declare module '../../module.ts' {
  interface Services {
    transport: DeviceTransport;
  }
  interface Tuning extends TransportOptions {}
}

declare module '../../lib/event-bus.ts' {
  interface Events {
    /** A device connected or went away (disconnect or inactivity timeout). */
    'device.stateChanged': { deviceId: string; state: Extract<DeviceState, 'ONLINE' | 'OFFLINE'>; ts: number };
    /** A device answered a server-side RPC on `v1/devices/me/rpc/response/{requestId}`. */
    'device.rpcResponse': { deviceId: string; requestId: number; payload: unknown };
    /**
     * A delivery path (`Transport.addDeliveryPath`) could not carry out server RPC `requestId`:
     * the device refused it (a Modbus exception) or never answered; `payload` says why, in words.
     */
    'device.rpcFailed': { deviceId: string; requestId: number; payload: unknown };
    /**
     * A device acknowledged server RPC `requestId`: the MQTT PUBACK of a QoS 1 request (its own
     * topic or its gateway's), or the HTTP poll that handed it over.
     */
    'device.rpcDelivered': { deviceId: string; requestId: number };
    /**
     * A device called client-side RPC `method` (MQTT `v1/devices/me/rpc/request/{id}` or HTTP
     * `POST /api/v1/{token}/rpc`), one the transport does not answer itself. Whoever serves it
     * answers with `transport.answerClientRpc(deviceId, requestId, body)` within the client RPC
     * timeout (60 s); `requestId` is the transport's number for the call, not the device's topic id.
     */
    'device.clientRpc': { deviceId: string; requestId: number; method: string; params: unknown; ts: number };
    /** One device message arrived (any topic): feeds the workbench's message volume. */
    'message.received': { deviceId: string; ts: number; bytes: number };
  }
}

export const transportModule = defineModule({
  name: 'transport',
  needs: ['devices', 'credentials', 'telemetry', 'sharedAttributes', 'provisioning'],
  apiTags: {
    'device-api': 'HTTP device API: devices post telemetry and attributes and poll for RPC with their access token in the path',
    'device-access': 'How devices reach this gateway: the MQTT ports and the TLS port certificate',
  },
  build: ({ core, log, tuning, services }) => ({ transport: new DeviceTransport({ core, log, options: tuning, ...services }) }),
  routes: async (app, scope) => {
    // Apart: the device API replaces the content-type parsers of its scope with a byte reader.
    await app.register(async (devices) => registerDeviceApiRoutes(devices, scope));
    registerDeviceAccessRoutes(app, scope);
  },
  start: ({ transport }) => transport.start(),
  close: ({ transport }) => transport.close(),
});
