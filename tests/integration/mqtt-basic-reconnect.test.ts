/**
 * MQTT basic passwords are checked with scrypt once and then remembered (credentials-service.ts),
 * so a storm of reconnecting devices does not queue behind the hash. What was remembered must
 * never outlive the credentials it was checked against.
 */
import { describe, expect, it } from 'vitest';
import { credentialsRoutes } from '../../server/contract/credentials.ts';
import { deviceRoutes } from '../../server/contract/device.ts';
import { makeDeviceApp } from '../helpers/devices.ts';
import { connectDevice, connectRefused } from '../helpers/mqtt.ts';

async function basicDevice(password: string) {
  const t = await makeDeviceApp();
  const device = await t.api.createDevice();
  const setPassword = (value: string | undefined) =>
    t.api.ok(credentialsRoutes.update, {
      params: { id: device.id },
      body: { credentialsType: 'MQTT_BASIC', credentialsValue: JSON.stringify({ clientId: 'meter-7', userName: 'meter', password: value }) },
    });
  await setPassword(password);
  const identity = (pw: string) => ({ clientId: 'meter-7', username: 'meter', password: pw });
  return { ...t, device, setPassword, identity };
}

describe('remembered MQTT basic passwords', () => {
  it('reconnects with the remembered password, and refuses another one for the same device', async () => {
    const { app, identity } = await basicDevice('S3cret!');
    for (let i = 0; i < 3; i++) await (await connectDevice(app, identity('S3cret!'))).endAsync(true);
    expect((await connectRefused(app, identity('S3cret!x'))).code).toBe(5);
  });

  it('refuses the remembered password once the credentials were changed, and accepts the new one', async () => {
    const { app, identity, setPassword } = await basicDevice('S3cret!');
    await (await connectDevice(app, identity('S3cret!'))).endAsync(true);
    await setPassword('N3w-secret!');
    expect((await connectRefused(app, identity('S3cret!'))).code).toBe(5);
    await (await connectDevice(app, identity('N3w-secret!'))).endAsync(true);
  });

  it('refuses the remembered password once the password was changed back and forth (a new hash each time)', async () => {
    const { app, identity, setPassword } = await basicDevice('S3cret!');
    await (await connectDevice(app, identity('S3cret!'))).endAsync(true);
    await setPassword('Other-1!');
    await (await connectDevice(app, identity('Other-1!'))).endAsync(true);
    await setPassword('S3cret!');
    await (await connectDevice(app, identity('S3cret!'))).endAsync(true);
    expect((await connectRefused(app, identity('Other-1!'))).code).toBe(5);
  });

  it('keeps accepting the remembered password when an edit leaves the password out (it is kept)', async () => {
    const { app, identity, setPassword } = await basicDevice('S3cret!');
    await (await connectDevice(app, identity('S3cret!'))).endAsync(true);
    await setPassword(undefined);
    await (await connectDevice(app, identity('S3cret!'))).endAsync(true);
  });

  it('refuses the remembered password of a deleted device', async () => {
    const { app, api, device, identity } = await basicDevice('S3cret!');
    await (await connectDevice(app, identity('S3cret!'))).endAsync(true);
    await api.ok(deviceRoutes.delete, { body: { ids: [device.id] } });
    expect((await connectRefused(app, identity('S3cret!'))).code).toBe(5);
  });
});
