/**
 * Device OTA's live progress (OTA_PROGRESS over /api/ws) while a simulated device over real MQTT
 * follows ThingsBoard's firmware protocol to UPDATED.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { otaRoutes, type OtaDevice } from '../../server/contract/ota.ts';
import { eventually } from '../helpers/mqtt.ts';
import { expectSilenced, LiveClient } from '../helpers/live.ts';
import { FW_KEYS, fleet, SimulatedDevice } from '../helpers/ota.ts';

describe('delivery over MQTT, followed live', () => {
  it('tells the device by shared attributes, serves every chunk on v2/fw/response, an empty one past the end, and follows fw_state to UPDATED live until unsubscribed', async () => {
    const { t, devices, tokens, pkg, content } = await fleet(1);
    const live = await LiveClient.open(t, { token: t.token });
    live.send({ cmds: [{ type: 'OTA_PROGRESS', cmdId: 3, packageId: pkg.id }] });
    expect(await live.answer<{ data: OtaDevice[] }>(3)).toMatchObject({ data: [] });

    const device = await SimulatedDevice.connect(t, tokens[0]!);
    expect(await t.api.ok(otaRoutes.assign, { params: { id: pkg.id }, body: {} })).toEqual({ queued: 1 });
    const attributes = await device.firmwareAttributes();
    expect(attributes).toEqual({ fw_title: 'sensor-fw', fw_version: '1.1.0', fw_size: 4500, fw_checksum: pkg.checksum, fw_checksum_algorithm: 'SHA256' });
    await live.next((m) => m.cmdId === 3 && (m.data as OtaDevice[])[0]?.state === 'INITIATED');

    // The SDK also reads them by an attribute request.
    await device.client.publishAsync('v1/devices/me/attributes/request/1', JSON.stringify({ sharedKeys: FW_KEYS }), { qos: 1 });
    const read = await eventually(() => device.messages.find((m) => m.topic === 'v1/devices/me/attributes/response/1'), (m) => m !== undefined);
    expect(JSON.parse(read!.payload.toString())).toEqual({ shared: attributes });

    await device.report({ fw_state: 'DOWNLOADING' });
    const parts: Buffer[] = [];
    for (let n = 0; n * 1000 < 4500; n++) parts.push(await device.chunk(1, n, n === 0 ? '1000' : ''));
    const received = Buffer.concat(parts);
    expect(parts.map((p) => p.length)).toEqual([1000, 1000, 1000, 1000, 500]);
    expect(received.equals(content)).toBe(true);
    expect((await device.chunk(1, 5, '1000')).length).toBe(0);

    expect(createHash('sha256').update(received).digest('hex')).toBe(attributes.fw_checksum);
    for (const fw_state of ['DOWNLOADED', 'VERIFIED', 'UPDATING']) await device.report({ fw_state });
    await device.report({ fw_state: 'UPDATED', current_fw_title: 'sensor-fw', current_fw_version: '1.1.0' });
    const done = await live.next<{ data: OtaDevice[] }>((m) => m.cmdId === 3 && (m.data as OtaDevice[])[0]?.state === 'UPDATED', 15_000);
    expect(done.data[0]).toMatchObject({ deviceId: devices[0]!.id, deviceName: devices[0]!.name, error: null });
    expect((await t.api.ok(otaRoutes.list, { params: { id: pkg.productId } }))[0]).toMatchObject({ assigned: 1, inProgress: 0 });

    // Unsubscribed, the first subscription hears no later state; a second one does.
    await expectSilenced(live, {
      cmdId: 3,
      end: { type: 'OTA_PROGRESS_UNSUBSCRIBE', cmdId: 3 },
      witness: { type: 'OTA_PROGRESS', cmdId: 4, packageId: pkg.id },
      change: () => device.report({ fw_state: 'FAILED', fw_error: 'rolled back by the device' }),
      heard: (m) => (m.data as OtaDevice[])[0]?.state === 'FAILED',
    });
  });

});
