/**
 * The 4G modem's facts over HTTP with the networkmanager applier, ModemManager's `mmcli` faked at
 * the process boundary (tests/helpers/mmcli-stub.ts, real `mmcli -J` shapes). Reading touches no
 * network: the applier only reads here (applying a PIN is tests/integration/network-networkmanager.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { networkRoutes, type NetworkState } from '../../server/contract/network.ts';
import { ICCID, IMEI, MODEM, SIM, makeMmcliStub } from '../helpers/mmcli-stub.ts';
import { authHeader, signIn } from '../helpers/session.ts';
import { makeProvisionedApp } from '../helpers/setup.ts';

async function readCellular(): Promise<NetworkState['cellular']> {
  const t = await makeProvisionedApp({ networkApplier: 'networkmanager' });
  const { token } = await signIn(t.app, t.admin.username, t.admin.password);
  const res = await t.app.inject({ url: networkRoutes.get.url, headers: authHeader(token) });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as NetworkState).cellular;
}

describe('4G modem through mmcli -J', () => {
  it('reads the IMEI, the ICCID, the signal, the operator and the state of a registered modem', async () => {
    const stub = makeMmcliStub({ pin: '1234', unlocked: true });
    expect(await readCellular()).toMatchObject({ imei: IMEI, iccid: ICCID, signalDbm: -67, signalQuality: 67, operator: 'CHINA MOBILE', modemState: 'registered' });
    expect(stub.calls()).toEqual([
      ['mmcli', '-L', '-J'],
      ['mmcli', '-m', MODEM, '-J'],
      ['mmcli', '-i', SIM, '-J'],
      ['mmcli', '-m', MODEM, '--signal-get', '-J'],
    ]);
  });

  it('shows a modem whose SIM waits for its PIN as locked, with the IMEI from its equipment identifier', async () => {
    makeMmcliStub({ pin: '1234' });
    expect(await readCellular()).toMatchObject({ imei: IMEI, iccid: ICCID, signalQuality: 0, operator: '', modemState: 'locked' });
  });

  it('answers empty facts, not an error, when ModemManager knows no modem', async () => {
    makeMmcliStub({ pin: '1234', modem: false });
    expect(await readCellular()).toMatchObject({ imei: '', iccid: '', signalDbm: null, signalQuality: null, operator: '', modemState: '' });
  });
});
