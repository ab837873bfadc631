import { describe, expect, it } from 'vitest';
import type { NetworkState } from '../../server/contract/network.ts';
import { applyIdFromQuery, bodyOf, cutsSession, sectionFieldErrors, valuesOf } from '../../web/features/network/network-form.ts';

const state: NetworkState = {
  applier: 'file',
  lan: {
    connectionType: 'IMMOBILIZATION', ipAddress: '192.168.1.1', subnetMask: '255.255.255.0', gateway: '', dns: ['223.5.5.5'],
    dhcpServer: { enabled: true, poolStart: '192.168.1.100', poolEnd: '192.168.1.200' }, interfaceName: 'eth1', macAddress: '00:11:22:33:44:55',
  },
  wan: { connectionType: 'AUTO', ipAddress: '10.0.0.5', subnetMask: '255.255.255.0', gateway: '10.0.0.1', dns: [], interfaceName: 'eth0', macAddress: '00:11:22:33:44:56' },
  wifi: { enabled: true, mode: 'ap', ssid: 'edge', security: 'wpa2', passwordSet: true, interfaceName: 'wlan0', macAddress: '' },
  cellular: { enabled: false, apn: '', pinSet: false, imei: '', iccid: '', signalDbm: null, signalQuality: null, operator: '', modemState: '' },
};

describe('network page helpers', () => {
  it('turns a section read from the machine into form values and back without the read-only facts', () => {
    expect(bodyOf('lan', valuesOf(state, 'lan'))).toEqual({
      lan: { connectionType: 'IMMOBILIZATION', ipAddress: '192.168.1.1', subnetMask: '255.255.255.0', gateway: '', dns: ['223.5.5.5'], dhcpServer: { enabled: true, poolStart: '192.168.1.100', poolEnd: '192.168.1.200' } },
    });
    expect(bodyOf('wan', { ...valuesOf(state, 'wan'), dns: ' 8.8.8.8，1.1.1.1 ' }).wan?.dns).toEqual(['8.8.8.8', '1.1.1.1']);
  });

  it('keeps a stored WiFi password when the field is left empty, and drops it for an open network', () => {
    expect(bodyOf('wifi', valuesOf(state, 'wifi')).wifi).not.toHaveProperty('password');
    expect(bodyOf('wifi', { ...valuesOf(state, 'wifi'), security: 'none', password: 'x' }).wifi?.password).toBe('');
  });

  it("puts the server's refusals on the section's own fields", () => {
    const details = [
      { field: 'body.lan.dhcpServer.poolEnd', key: 'error.network.poolEnd', message: '' },
      { field: 'body.lan.dns.1', key: 'error.network.dns', message: '' },
      { field: 'body.wan.gateway', key: 'error.network.gateway', message: '' },
    ];
    expect(sectionFieldErrors(details, 'lan')).toEqual({ poolEnd: 'error.network.poolEnd', dns: 'error.network.dns' });
  });

  it('warns only when the LAN address the browser came in over changes', () => {
    const change = [{ path: 'lan.ipAddress', from: '192.168.1.1', to: '192.168.2.1' }];
    expect(cutsSession(change, '192.168.1.1', '192.168.1.1')).toBe(true);
    expect(cutsSession(change, '192.168.1.1', '10.0.0.5')).toBe(false);
    expect(cutsSession([{ path: 'lan.dns', from: [], to: ['1.1.1.1'] }], '192.168.1.1', '192.168.1.1')).toBe(false);
  });

  it('reads a well-formed applyId from the query only', () => {
    expect(applyIdFromQuery('?confirm=abcdefghijklmnopqrstuvwxyz012345')).toBe('abcdefghijklmnopqrstuvwxyz012345');
    expect(applyIdFromQuery('?confirm=<script>')).toBeNull();
    expect(applyIdFromQuery('')).toBeNull();
  });
});
