/**
 * The activation wizard's "cloud data loading" wait: the edge state is read with the setup code
 * during first boot only (like the cloud configuration it follows), and shows the announcements of
 * the devices the first cloud is told about.
 */
import { describe, expect, it } from 'vitest';
import { cloudRoutes } from '../../server/contract/cloud.ts';
import { cloudLinkRoutes, type EdgeState } from '../../server/contract/cloud-link.ts';
import { SETUP_CODE_HEADER } from '../../server/contract/license.ts';
import { makeApp, type TestApp } from '../helpers/app.ts';
import { configureCloud, edgeState, subscriber } from '../helpers/cloud-subscriber.ts';
import { makeDeviceApp } from '../helpers/devices.ts';
import { expectError } from '../helpers/error-body.ts';
import { startMosquitto } from '../helpers/mosquitto.ts';
import { eventually } from '../helpers/mqtt.ts';
import { makeProvisionedApp, setupCodeOf } from '../helpers/setup.ts';

const FAST = { cloudLink: { backoffMinMs: 100, backoffMaxMs: 400 } };
/** The subscriber (reconnecting every 200 ms) is back on a restarted broker before the edge. */
const AFTER_SUBSCRIBER = { cloudLink: { backoffMinMs: 1500, backoffMaxMs: 3000 } };

function readState(t: TestApp, headers: Record<string, string>) {
  return t.app.inject({ method: 'GET', url: cloudLinkRoutes.state.url, headers });
}

describe('edge state during first boot', () => {
  it('answers the setup code before an administrator exists, with the link connecting to the cloud just saved', async () => {
    const broker = await startMosquitto();
    const t = await makeApp({ tuning: FAST });
    expectError(await readState(t, {}), 401, 10, 'error.setup.codeRequired');
    expectError(await readState(t, { [SETUP_CODE_HEADER]: 'NOTTHECODE22' }), 401, 10, 'error.setup.codeInvalid');
    const code = { [SETUP_CODE_HEADER]: setupCodeOf(t) };
    expect((await readState(t, code)).json()).toMatchObject({ status: 'NOT_CONFIGURED', pendingCloudEvents: 0 });

    const saved = await t.app.inject({
      method: 'PUT',
      url: cloudRoutes.save.url,
      headers: code,
      payload: { platformAddress: '127.0.0.1', platformPort: broker.port, platformKey: 'edge-key', platformSecret: '' },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const connected = await eventually(async () => (await readState(t, code)).json() as EdgeState, (s) => s.status === 'CONNECTED');
    expect(connected).toMatchObject({ backlog: { messages: 0 }, pendingCloudEvents: 0 });
  });

  it('after first boot, needs a signed-in user: the setup code alone is refused', async () => {
    const t = await makeProvisionedApp();
    expectError(await readState(t, { [SETUP_CODE_HEADER]: setupCodeOf(t) }), 401, 10, 'error.auth.required');
  });

  it('announces the devices that exist when the first cloud is configured, and counts them down', async () => {
    const broker = await startMosquitto();
    const cloud = await subscriber(broker);
    const t = await makeDeviceApp({ tuning: AFTER_SUBSCRIBER });
    await t.api.createDevice({ name: 'Early_1' });
    await t.api.createDevice({ name: 'Early_2' });
    await broker.stop();
    await configureCloud(t, broker);
    const waiting = await eventually(() => edgeState(t), (s) => s.pendingCloudEvents === 2);
    expect(waiting.status).not.toBe('CONNECTED');
    await broker.resume();
    await eventually(() => cloud.client.connected, (up) => up);
    await eventually(() => edgeState(t), (s) => s.status === 'CONNECTED' && s.pendingCloudEvents === 0, 10_000);
    // The broker acknowledges the gateway's publish before it hands the message to the
    // subscriber, so the subscriber may see it a moment after the count reaches zero.
    const announcedNames = () => cloud.seen.filter((m) => m.topic === 'v1/gateway/connect').map((m) => m.body.device);
    const announced = await eventually(announcedNames, (names) => names.includes('Early_1') && names.includes('Early_2'));
    expect(announced).toEqual(expect.arrayContaining(['Early_1', 'Early_2']));
  });
});
