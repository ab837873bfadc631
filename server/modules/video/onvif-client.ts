/**
 * What channel sync needs from an ONVIF camera or NVR (Profile S): its clock, its media service,
 * its model, its media profiles and each profile's RTSP stream URI. Transport: onvif-soap.ts.
 */
import { attributeOf, elements, escapeXml, OnvifError, soapCall, textOf, type SoapCredentials } from './onvif-soap.ts';

export interface OnvifTarget {
  host: string;
  port: number;
  username: string;
  password: string;
  /** Per SOAP request. */
  timeoutMs: number;
}

export interface OnvifProfile {
  /** Stable across re-syncs: channels are matched by source device and this token. */
  token: string;
  name: string;
  /** rtsp:// as the camera gives it (it may hold credentials; the sync strips them). */
  uri: string;
}

export interface OnvifDevice {
  manufacturer: string | null;
  model: string | null;
  /** Camera clock minus ours, ms (0 when the camera did not tell). */
  skewMs: number;
  profiles: OnvifProfile[];
}

/** A recorder with more profiles than this is cut off: each costs a request and a channel row. */
const PROFILES_MAX = 64;

/** The camera's UTC clock from GetSystemDateAndTime (ONVIF requires it to answer without auth). */
function cameraClockOf(body: string): number | null {
  const utc = elements(body, 'UTCDateTime')[0]?.inner;
  if (!utc) return null;
  const n = (name: string): number => Number(textOf(utc, name));
  const at = Date.UTC(n('Year'), n('Month') - 1, n('Day'), n('Hour'), n('Minute'), n('Second'));
  return Number.isFinite(at) ? at : null;
}

/** The host the caller reached replaces the one in an XAddr: a camera behind NAT or a forwarded port names its LAN address. */
function reachable(xaddr: string | null, fallback: URL): URL {
  if (!xaddr) return fallback;
  try {
    const url = new URL(xaddr);
    if (url.protocol !== 'http:') return fallback;
    url.host = fallback.host;
    return url;
  } catch {
    return fallback;
  }
}

export async function readOnvifDevice(target: OnvifTarget): Promise<OnvifDevice> {
  const deviceUrl = new URL(`http://${target.host.includes(':') ? `[${target.host}]` : target.host}:${target.port}/onvif/device_service`);
  const sent = Date.now();
  const clock = cameraClockOf(await soapCall(deviceUrl, '<tds:GetSystemDateAndTime/>', null, target.timeoutMs));
  if (clock === null) throw new OnvifError('NOT_ONVIF', 'no SystemDateAndTime');
  // The answer's seconds were read somewhere during the round trip: take its middle.
  const skewMs = clock - (sent + Date.now()) / 2;
  const credentials: SoapCredentials = { username: target.username, password: target.password, skewMs };

  const capabilities = await soapCall(deviceUrl, '<tds:GetCapabilities><tds:Category>Media</tds:Category></tds:GetCapabilities>', credentials, target.timeoutMs);
  const media = elements(capabilities, 'Media')[0]?.inner;
  const mediaUrl = reachable(media ? textOf(media, 'XAddr') : null, deviceUrl);

  let manufacturer: string | null = null;
  let model: string | null = null;
  try {
    const info = await soapCall(deviceUrl, '<tds:GetDeviceInformation/>', credentials, target.timeoutMs);
    manufacturer = textOf(info, 'Manufacturer');
    model = textOf(info, 'Model');
  } catch (err) {
    // The model is a nicety: a camera that refuses only this call still syncs.
    if (!(err instanceof OnvifError) || err.failure !== 'NOT_ONVIF') throw err;
  }

  const listed = elements(await soapCall(mediaUrl, '<trt:GetProfiles/>', credentials, target.timeoutMs), 'Profiles').slice(0, PROFILES_MAX);
  const profiles: OnvifProfile[] = [];
  for (const profile of listed) {
    const token = attributeOf(profile.attrs, 'token');
    if (!token) continue;
    const answer = await soapCall(
      mediaUrl,
      '<trt:GetStreamUri><trt:StreamSetup><tt:Stream>RTP-Unicast</tt:Stream><tt:Transport><tt:Protocol>RTSP</tt:Protocol></tt:Transport></trt:StreamSetup>' +
        `<trt:ProfileToken>${escapeXml(token)}</trt:ProfileToken></trt:GetStreamUri>`,
      credentials,
      target.timeoutMs,
    );
    const uri = textOf(answer, 'Uri');
    // The profile's own Name comes before its configurations' names in the schema's sequence.
    if (uri) profiles.push({ token, name: textOf(profile.inner, 'Name') || token, uri });
  }
  return { manufacturer, model, skewMs, profiles };
}
