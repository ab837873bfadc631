import { describe, expect, it } from 'vitest';
import { isPlatformAddress, parsePort } from '../../web/features/guide/cloudRules.ts';

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
});
