/**
 * How the console recognises a licence error besides code 99: by the message of an expired
 * certificate (the spec's session rule), which an upstream edge core in proxy mode may send with
 * another code. It matches the `error.license.expired` texts of locales/<lang>/errors.json (a test
 * keeps them in step) and the wording ThingsBoard-based cores use.
 */
export const CERTIFICATE_EXPIRED_PATTERN = /证书已过期|证书过期|licen[cs]e has expired|certificate (has )?expired/i;

export function isCertificateExpiredMessage(message: string | null | undefined): boolean {
  return typeof message === 'string' && CERTIFICATE_EXPIRED_PATTERN.test(message);
}
