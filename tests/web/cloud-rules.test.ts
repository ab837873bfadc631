import { describe, expect, it } from 'vitest';
import { Value } from 'typebox/value';
import { CloudConfigSchema } from '../../server/contract/cloud.ts';
import { cloudHttpUrlProblem } from '../../server/contract/rules/cloud-http-url.ts';
import { isPlatformAddress, parsePort } from '../../web/features/cloud/cloudRules.ts';
import { toCloudConfig } from '../../web/features/cloud/cloudForm.ts';

describe('cloud platform form rules', () => {
  it('accepts an IPv4 address and a host name', () => {
    expect(isPlatformAddress('192.168.1.10')).toBe(true);
    expect(isPlatformAddress('iot.example.com')).toBe(true);
  });

  it('refuses an IPv4 address with an octet over 255 rather than reading it as a host name', () => {
    expect(isPlatformAddress('300.1.1.1')).toBe(false);
  });

  it('refuses an address with a space or a scheme', () => {
    expect(isPlatformAddress('iot example.com')).toBe(false);
    expect(isPlatformAddress('http://iot.example.com')).toBe(false);
  });

  it('accepts ports 1 and 65535 and refuses 0, 65536 and fractions', () => {
    expect(parsePort('1')).toBe(1);
    expect(parsePort(' 65535 ')).toBe(65535);
    expect(parsePort('0')).toBeNull();
    expect(parsePort('65536')).toBeNull();
    expect(parsePort('80.5')).toBeNull();
    expect(parsePort('')).toBeNull();
  });

  it('accepts the HTTP addresses the server accepts, and refuses the ones it refuses', () => {
    const base = { platformAddress: '10.0.0.1', platformPort: 1883, platformKey: 'k', platformSecret: '' };
    for (const url of ['http://cloud.example.com', 'https://10.0.0.2:8080', 'https://cloud.example.com/tb', 'ftp://x.example', 'cloud.example.com', 'http://a b', 'http://', `http://c.example/${'p'.repeat(300)}`]) {
      expect([url, cloudHttpUrlProblem(url) === null]).toEqual([url, Value.Check(CloudConfigSchema, { ...base, platformHttpUrl: url })]);
    }
    expect(cloudHttpUrlProblem('  ')).toBeNull();
  });

  it('sends an empty secret as access-token authentication and leaves out an empty HTTP address', () => {
    const body = toCloudConfig({ platformAddress: ' cloud.example.com ', platformPort: '8883', platformKey: 'token', platformHttpUrl: '  ' });
    expect(body).toEqual({ platformAddress: 'cloud.example.com', platformPort: 8883, platformKey: 'token', platformSecret: '', platformTls: false });
    expect(Value.Check(CloudConfigSchema, body)).toBe(true);
  });
});
