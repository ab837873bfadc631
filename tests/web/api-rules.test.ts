import { describe, expect, it } from 'vitest';
import zhErrors from '../../locales/zh_CN/errors.json';
import enErrors from '../../locales/en_US/errors.json';
import { errorTextOf, isLicenseError, licenseRedirect, POST_RETRY, withRetry } from '../../web/lib/api-rules.ts';

describe('the error text the console shows', () => {
  it('is the body’s errorMessage, else its message, else its msg', () => {
    expect(errorTextOf({ errorMessage: 'A', message: 'B', msg: 'C' })).toBe('A');
    expect(errorTextOf({ message: 'B', msg: 'C' })).toBe('B');
    expect(errorTextOf({ code: 500, msg: '上游错误' })).toBe('上游错误');
  });

  it('is the body itself when the body is text, and nothing for an empty or wordless body', () => {
    expect(errorTextOf('Bad Gateway')).toBe('Bad Gateway');
    expect(errorTextOf('')).toBeNull();
    expect(errorTextOf({ code: 2 })).toBeNull();
    expect(errorTextOf(null)).toBeNull();
  });
});

describe('a licence error', () => {
  it('is code 99 whatever the message', () => {
    expect(isLicenseError(99, 'anything')).toBe(true);
  });

  it('is a certificate-expired message whatever the code, in either language', () => {
    expect(isLicenseError(2, zhErrors.license.expired)).toBe(true);
    expect(isLicenseError(undefined, enErrors.license.expired)).toBe(true);
    expect(isLicenseError(500, '证书已过期')).toBe(true);
  });

  it('is not any other error', () => {
    expect(isLicenseError(31, 'Bad request parameters')).toBe(false);
    expect(isLicenseError(10, zhErrors.auth.tokenExpired ?? 'token expired')).toBe(false);
  });

  it('sends a gateway without a licence to the setting guide with the licenseCode parameter', () => {
    expect(licenseRedirect('error.license.required')).toBe('/guide?licenseCode=error.license.required');
    expect(licenseRedirect('error.setup.licenseFirst')).toBe('/guide?licenseCode=error.setup.licenseFirst');
  });

  it('sends an expired licence to the licence upload page', () => {
    expect(licenseRedirect('error.license.expired')).toBe('/expired-upload-license');
    expect(licenseRedirect(undefined)).toBe('/expired-upload-license');
  });
});

describe('the POST retry', () => {
  const pauses: number[] = [];
  const wait = async (ms: number): Promise<void> => {
    pauses.push(ms);
  };

  it('tries 5 more times, 100 ms apart, and throws the last failure', async () => {
    pauses.length = 0;
    let calls = 0;
    const failing = async (): Promise<never> => {
      calls += 1;
      throw new Error(`failure ${calls}`);
    };
    await expect(withRetry(failing, POST_RETRY, () => true, wait)).rejects.toThrow('failure 6');
    expect(calls).toBe(6);
    expect(pauses).toEqual([100, 100, 100, 100, 100]);
  });

  it('stops at the first success', async () => {
    let calls = 0;
    const flaky = async (): Promise<string> => {
      calls += 1;
      if (calls < 3) throw new Error('down');
      return 'ok';
    };
    await expect(withRetry(flaky, POST_RETRY, () => true, wait)).resolves.toBe('ok');
    expect(calls).toBe(3);
  });

  it('tries once when off (the default) or when the failure is not worth another try', async () => {
    let calls = 0;
    const failing = async (): Promise<never> => {
      calls += 1;
      throw new Error('no');
    };
    await expect(withRetry(failing, null, () => true, wait)).rejects.toThrow('no');
    await expect(withRetry(failing, POST_RETRY, () => false, wait)).rejects.toThrow('no');
    expect(calls).toBe(2);
  });
});
