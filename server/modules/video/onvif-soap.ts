/**
 * The SOAP transport of our ONVIF client (server/modules/video/onvif-client.ts): fetch with a
 * deadline and a size cap, WS-Security UsernameToken digests signed with the camera's clock, HTTP
 * digest as the fallback some firmwares want, and a tiny XML extraction.
 *
 * Why our own rather than the `onvif` npm package: that package (with xml2js) reports every failure
 * as a free-text error, so a wrong password, a skewed clock, a timeout and a host that is not ONVIF
 * at all could only be told apart by matching its message strings; and its connect step walks
 * several services that some NVRs do not offer. Sync needs four calls and must answer each failure
 * with its own 4xx, so a few hundred lines of our own are smaller and clearer.
 */
import { createHash, randomBytes } from 'node:crypto';

/** Each failure the sync answers with its own message (error.video.onvif*). */
export type OnvifFailure = 'TIMEOUT' | 'UNREACHABLE' | 'NOT_ONVIF' | 'AUTH_FAILED' | 'CLOCK_SKEW';

export class OnvifError extends Error {
  constructor(readonly failure: OnvifFailure, detail: string) {
    super(`${failure}: ${detail}`);
  }
}

export interface SoapCredentials {
  username: string;
  password: string;
  /** Camera clock minus ours (ms): UsernameToken's Created is stamped in the camera's time. */
  skewMs: number;
}

/** A camera's answer is a few KB; more than this is not a camera we talk to. */
const RESPONSE_MAX_BYTES = 1024 * 1024;
const WSSE = 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd';
const WSU = 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd';
const PASSWORD_DIGEST = 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-username-token-profile-1.0#PasswordDigest';
const BASE64_BINARY = 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-soap-message-security-1.0#Base64Binary';

export function escapeXml(text: string): string {
  return text.replace(/[<>&'"]/g, (c) => `&${({ '<': 'lt', '>': 'gt', '&': 'amp', "'": 'apos', '"': 'quot' })[c]};`);
}

function unescapeXml(text: string): string {
  return text
    .replace(/&#(\d+);/g, (_, n: string) => String.fromCodePoint(Number(n)))
    .replace(/&#x([0-9a-f]+);/gi, (_, n: string) => String.fromCodePoint(parseInt(n, 16)))
    .replace(/&(lt|gt|quot|apos|amp);/g, (_, e: string) => ({ lt: '<', gt: '>', quot: '"', apos: "'", amp: '&' })[e]!);
}

/** A WS-Security UsernameToken (PasswordDigest = Base64(SHA-1(nonce + created + password))). */
export function usernameToken(credentials: SoapCredentials, now = Date.now()): string {
  const nonce = randomBytes(16);
  const created = new Date(now + credentials.skewMs).toISOString().replace(/\.\d{3}Z$/, 'Z');
  const digest = createHash('sha1').update(Buffer.concat([nonce, Buffer.from(created + credentials.password, 'utf8')])).digest('base64');
  return (
    `<Security s:mustUnderstand="1" xmlns="${WSSE}"><UsernameToken><Username>${escapeXml(credentials.username)}</Username>` +
    `<Password Type="${PASSWORD_DIGEST}">${digest}</Password><Nonce EncodingType="${BASE64_BINARY}">${nonce.toString('base64')}</Nonce>` +
    `<Created xmlns="${WSU}">${created}</Created></UsernameToken></Security>`
  );
}

function envelope(body: string, credentials: SoapCredentials | null): string {
  const header = credentials ? `<s:Header>${usernameToken(credentials)}</s:Header>` : '';
  return (
    '<?xml version="1.0" encoding="UTF-8"?><s:Envelope xmlns:s="http://www.w3.org/2003/05/soap-envelope" ' +
    'xmlns:tds="http://www.onvif.org/ver10/device/wsdl" xmlns:trt="http://www.onvif.org/ver10/media/wsdl" xmlns:tt="http://www.onvif.org/ver10/schema">' +
    `${header}<s:Body>${body}</s:Body></s:Envelope>`
  );
}

/** The inner XML of every `<prefix:name …>…</prefix:name>` (any namespace prefix), with its attributes. */
export function elements(xml: string, name: string): { attrs: string; inner: string }[] {
  const found: { attrs: string; inner: string }[] = [];
  const re = new RegExp(`<(?:[\\w.-]+:)?${name}(\\s[^>]*?)?(?:/>|>([\\s\\S]*?)</(?:[\\w.-]+:)?${name}>)`, 'g');
  for (const m of xml.matchAll(re)) found.push({ attrs: m[1] ?? '', inner: m[2] ?? '' });
  return found;
}

/** The text of the first `name` element, unescaped and trimmed; null when there is none. */
export function textOf(xml: string, name: string): string | null {
  const first = elements(xml, name)[0];
  return first ? unescapeXml(first.inner.replace(/<[^>]*>/g, '')).trim() : null;
}

export function attributeOf(attrs: string, name: string): string | null {
  const m = new RegExp(`\\b${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)')`).exec(attrs);
  return m ? unescapeXml(m[1] ?? m[2] ?? '') : null;
}

/** HTTP digest (RFC 7616, MD5, qop=auth): Hikvision firmwares that ignore WS-Security ask for it with a 401. */
function digestAuthorization(challenge: string, url: URL, credentials: SoapCredentials): string | null {
  if (!/^Digest\s/i.test(challenge)) return null;
  const param = (key: string): string | undefined => new RegExp(`${key}="?([^",]*)"?`, 'i').exec(challenge)?.[1];
  const realm = param('realm') ?? '';
  const nonce = param('nonce') ?? '';
  const qop = param('qop')?.split(/\s*,\s*/).includes('auth') ? 'auth' : undefined;
  const md5 = (s: string): string => createHash('md5').update(s).digest('hex');
  const uri = url.pathname + url.search;
  const ha1 = md5(`${credentials.username}:${realm}:${credentials.password}`);
  const ha2 = md5(`POST:${uri}`);
  const cnonce = randomBytes(8).toString('hex');
  const nc = '00000001';
  const response = qop ? md5(`${ha1}:${nonce}:${nc}:${cnonce}:${qop}:${ha2}`) : md5(`${ha1}:${nonce}:${ha2}`);
  const opaque = param('opaque');
  return (
    `Digest username="${credentials.username}", realm="${realm}", nonce="${nonce}", uri="${uri}", response="${response}"` +
    (qop ? `, qop=${qop}, nc=${nc}, cnonce="${cnonce}"` : '') +
    (opaque ? `, opaque="${opaque}"` : '')
  );
}

async function readCapped(res: Response): Promise<string> {
  if (!res.body) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.length;
    if (size > RESPONSE_MAX_BYTES) throw new OnvifError('NOT_ONVIF', 'answer too large');
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

async function post(url: URL, xml: string, timeoutMs: number, authorization?: string): Promise<{ status: number; text: string; challenge: string | null }> {
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/soap+xml; charset=utf-8', ...(authorization ? { authorization } : {}) },
      body: xml,
      redirect: 'error',
      signal: AbortSignal.timeout(timeoutMs),
    });
    return { status: res.status, text: await readCapped(res), challenge: res.headers.get('www-authenticate') };
  } catch (err) {
    if (err instanceof OnvifError) throw err;
    const name = (err as Error).name;
    if (name === 'TimeoutError' || name === 'AbortError') throw new OnvifError('TIMEOUT', url.host);
    const code = ((err as { cause?: { code?: string } }).cause?.code ?? '') as string;
    if (/ECONNREFUSED|EHOSTUNREACH|ENETUNREACH|ENOTFOUND|EAI_AGAIN|ECONNRESET/.test(code)) throw new OnvifError('UNREACHABLE', `${url.host} ${code}`);
    if (/TIMEDOUT/.test(code)) throw new OnvifError('TIMEOUT', url.host);
    // Anything else (a non-HTTP answer, a TLS port): whatever it is, it does not speak ONVIF.
    throw new OnvifError('NOT_ONVIF', `${url.host} ${code || (err as Error).message}`);
  }
}

/** A SOAP fault's subcode and reason as one string (for classification), or null when the answer is not a fault. */
function faultOf(text: string): string | null {
  const fault = elements(text, 'Fault')[0];
  if (!fault) return null;
  return `${elements(fault.inner, 'Value').map((v) => v.inner.replace(/<[^>]*>/g, '')).join(' ')} ${textOf(fault.inner, 'Text') ?? textOf(fault.inner, 'faultstring') ?? ''}`;
}

/**
 * Calls one SOAP operation and answers the response body's XML. Throws OnvifError: NOT_ONVIF for an
 * answer that is no SOAP envelope, AUTH_FAILED for a refused token or digest, CLOCK_SKEW when the
 * camera says the token expired (WS-Security's MessageExpired: its clock and the stamp disagree).
 */
export async function soapCall(url: URL, body: string, credentials: SoapCredentials | null, timeoutMs: number): Promise<string> {
  const xml = envelope(body, credentials);
  let res = await post(url, xml, timeoutMs);
  if (res.status === 401 && credentials && res.challenge) {
    const authorization = digestAuthorization(res.challenge, url, credentials);
    if (authorization) res = await post(url, xml, timeoutMs, authorization);
  }
  const fault = faultOf(res.text);
  if (fault !== null) {
    if (/MessageExpired|expired|clock|time ?stamp/i.test(fault)) throw new OnvifError('CLOCK_SKEW', fault);
    if (/NotAuthorized|FailedAuthentication|InvalidSecurity|not authorized|authenticat/i.test(fault)) throw new OnvifError('AUTH_FAILED', fault);
    throw new OnvifError('NOT_ONVIF', fault);
  }
  if (res.status === 401 || res.status === 403) throw new OnvifError('AUTH_FAILED', `HTTP ${res.status}`);
  if (res.status !== 200 || elements(res.text, 'Envelope').length === 0) throw new OnvifError('NOT_ONVIF', `HTTP ${res.status}`);
  return elements(res.text, 'Body')[0]?.inner ?? '';
}
