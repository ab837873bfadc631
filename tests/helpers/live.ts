/**
 * A device-management test app whose event bus the test holds (to hear what the server announces
 * or to stand in for a transport event), listening on a real port for websocket and MQTT clients.
 */
import { EventBus } from '../../server/lib/event-bus.ts';
import { ContractClient, DeviceApi, type DeviceTestApp } from './devices.ts';
import { signIn } from './session.ts';
import { makeProvisionedApp } from './setup.ts';

export interface LiveTestApp extends DeviceTestApp {
  bus: EventBus;
  token: string;
  /** `http://127.0.0.1:<port>` once `listen` was called. */
  baseUrl: string;
}

export async function makeLiveApp(options: { listen?: boolean } = {}): Promise<LiveTestApp> {
  const bus = new EventBus();
  const t = await makeProvisionedApp({ bus });
  const { token } = await signIn(t.app, t.admin.username, t.admin.password);
  let baseUrl = '';
  if (options.listen) {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    if (!address || typeof address === 'string') throw new Error('no TCP address');
    baseUrl = `http://127.0.0.1:${address.port}`;
  }
  return { ...t, bus, token, baseUrl, api: new DeviceApi(t.app, token), anonymous: new ContractClient(t.app, null) };
}
