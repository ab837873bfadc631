/**
 * A small ONVIF device for the sync tests (node:http on loopback): GetSystemDateAndTime with a clock
 * hours off ours, GetCapabilities, GetDeviceInformation, GetProfiles and GetStreamUri pointing at
 * the real RTSP test camera. Every call but the clock checks the WS-Security UsernameToken digest
 * against the camera's own clock, as cameras do (a token stamped with the gateway's time is refused),
 * or, with `httpDigest`, only HTTP digest auth, as some Hikvision firmwares do.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTcpServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export interface ResponderProfile {
  token: string;
  name: string;
  /** The stream URI the device answers (may carry credentials, as some NVRs do). */
  uri: string;
}

export interface ResponderOptions {
  username: string;
  password: string;
  /** The camera's clock minus the real one. */
  skewMs: number;
  profiles: ResponderProfile[];
  /** Checks tokens against a clock this far from the one it reports (a camera whose reported time is wrong). */
  checksAgainstMs?: number;
  /** Refuses WS-Security and asks for HTTP digest instead. */
  httpDigest?: boolean;
}

export interface OnvifResponder {
  port: number;
  options: ResponderOptions;
  /** Operations answered, in order ("GetProfiles", …); refused ones end in " refused". */
  calls: string[];
  close(): Promise<void>;
}

/** WS-Security's usual allowance between the token's Created and the receiver's clock. */
const TOKEN_WINDOW_MS = 5 * 60_000;
const REALM = 'IP Camera';

const envelope = (body: string): string =>
  '<?xml version="1.0" encoding="UTF-8"?><env:Envelope xmlns:env="http://www.w3.org/2003/05/soap-envelope" ' +
  'xmlns:tds="http://www.onvif.org/ver10/device/wsdl" xmlns:trt="http://www.onvif.org/ver10/media/wsdl" xmlns:tt="http://www.onvif.org/ver10/schema" ' +
  `xmlns:ter="http://www.onvif.org/ver10/error"><env:Body>${body}</env:Body></env:Envelope>`;

const fault = (subcode: string, text: string): string =>
  envelope(
    `<env:Fault><env:Code><env:Value>env:Sender</env:Value><env:Subcode><env:Value>${subcode}</env:Value></env:Subcode></env:Code>` +
      `<env:Reason><env:Text xml:lang="en">${text}</env:Text></env:Reason></env:Fault>`,
  );

const tag = (xml: string, name: string): string | undefined => new RegExp(`<(?:\\w+:)?${name}\\b[^>]*>([^<]*)<`).exec(xml)?.[1];
const xmlText = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');

function clockBody(at: Date): string {
  return (
    '<tds:GetSystemDateAndTimeResponse><tds:SystemDateAndTime><tt:DateTimeType>Manual</tt:DateTimeType><tt:DaylightSavings>false</tt:DaylightSavings>' +
    `<tt:UTCDateTime><tt:Time><tt:Hour>${at.getUTCHours()}</tt:Hour><tt:Minute>${at.getUTCMinutes()}</tt:Minute><tt:Second>${at.getUTCSeconds()}</tt:Second></tt:Time>` +
    `<tt:Date><tt:Year>${at.getUTCFullYear()}</tt:Year><tt:Month>${at.getUTCMonth() + 1}</tt:Month><tt:Day>${at.getUTCDate()}</tt:Day></tt:Date></tt:UTCDateTime>` +
    '</tds:SystemDateAndTime></tds:GetSystemDateAndTimeResponse>'
  );
}

/** Why the WS-Security token is refused, or null when it holds. */
function tokenRefusal(xml: string, o: ResponderOptions): string | null {
  const [user, digest, nonce, created] = [tag(xml, 'Username'), tag(xml, 'Password'), tag(xml, 'Nonce'), tag(xml, 'Created')];
  if (!user || !digest || !nonce || !created) return fault('ter:NotAuthorized', 'Sender not Authorized');
  const cameraNow = Date.now() + (o.checksAgainstMs ?? o.skewMs);
  if (Math.abs(Date.parse(created) - cameraNow) > TOKEN_WINDOW_MS) return fault('wsse:MessageExpired', 'The message has expired');
  const expected = createHash('sha1').update(Buffer.concat([Buffer.from(nonce, 'base64'), Buffer.from(created + o.password)])).digest('base64');
  if (user !== o.username || digest !== expected) return fault('ter:NotAuthorized', 'Sender not Authorized');
  return null;
}

function digestHolds(header: string | undefined, nonce: string, o: ResponderOptions): boolean {
  if (!header?.startsWith('Digest ')) return false;
  const p = (k: string): string => new RegExp(`${k}="?([^",]*)"?`).exec(header)?.[1] ?? '';
  const md5 = (s: string): string => createHash('md5').update(s).digest('hex');
  const ha1 = md5(`${o.username}:${REALM}:${o.password}`);
  const expected = md5(`${ha1}:${nonce}:${p('nc')}:${p('cnonce')}:auth:${md5(`POST:${p('uri')}`)}`);
  return p('username') === o.username && p('nonce') === nonce && p('response') === expected;
}

function answer(op: string, xml: string, port: number, o: ResponderOptions): string {
  const media = `http://127.0.0.1:${port}/onvif/media_service`;
  switch (op) {
    case 'GetCapabilities':
      return envelope(`<tds:GetCapabilitiesResponse><tds:Capabilities><tt:Media><tt:XAddr>${media}</tt:XAddr></tt:Media></tds:Capabilities></tds:GetCapabilitiesResponse>`);
    case 'GetDeviceInformation':
      return envelope('<tds:GetDeviceInformationResponse><tds:Manufacturer>TestCam</tds:Manufacturer><tds:Model>TC-2000</tds:Model></tds:GetDeviceInformationResponse>');
    case 'GetProfiles':
      return envelope(
        `<trt:GetProfilesResponse>${o.profiles
          .map((p) => `<trt:Profiles token="${p.token}" fixed="true"><tt:Name>${xmlText(p.name)}</tt:Name><tt:VideoEncoderConfiguration token="enc_${p.token}"><tt:Name>encoder</tt:Name><tt:Encoding>H264</tt:Encoding></tt:VideoEncoderConfiguration></trt:Profiles>`)
          .join('')}</trt:GetProfilesResponse>`,
      );
    case 'GetStreamUri': {
      const profile = o.profiles.find((p) => p.token === tag(xml, 'ProfileToken'));
      if (!profile) return fault('ter:InvalidArgVal', 'No such profile');
      return envelope(`<trt:GetStreamUriResponse><trt:MediaUri><tt:Uri>${xmlText(profile.uri)}</tt:Uri><tt:Timeout>PT0S</tt:Timeout></trt:MediaUri></trt:GetStreamUriResponse>`);
    }
    default:
      return fault('ter:ActionNotSupported', 'Optional Action Not Implemented');
  }
}

export async function startOnvifResponder(options: ResponderOptions): Promise<OnvifResponder> {
  const calls: string[] = [];
  const digestNonce = randomBytes(12).toString('hex');
  let port = 0;
  const handle = (req: IncomingMessage, res: ServerResponse, xml: string): void => {
    const op = /<(?:\w+:)?(Get\w+)[\s/>]/.exec(xml.slice(xml.search(/<(?:\w+:)?Body/)))?.[1] ?? 'unknown';
    const send = (status: number, body: string, headers: Record<string, string> = {}): void => {
      calls.push(status === 200 ? op : `${op} refused`);
      res.writeHead(status, { 'content-type': 'application/soap+xml; charset=utf-8', ...headers }).end(body);
    };
    if (op === 'GetSystemDateAndTime') return send(200, envelope(clockBody(new Date(Date.now() + options.skewMs))));
    if (options.httpDigest) {
      if (!digestHolds(req.headers.authorization, digestNonce, options)) {
        return send(401, '', { 'www-authenticate': `Digest realm="${REALM}", qop="auth", nonce="${digestNonce}", algorithm=MD5` });
      }
    } else {
      const refusal = tokenRefusal(xml, options);
      if (refusal) return send(400, refusal);
    }
    send(200, answer(op, xml, port, options));
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => handle(req, res, Buffer.concat(chunks).toString('utf8')));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  return {
    port,
    options,
    calls,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** A TCP port that accepts and never answers (a camera hung mid-request). */
export async function startSilentHost(): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server = createTcpServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
