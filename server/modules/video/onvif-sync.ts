/** The pure parts of ONVIF channel sync: failures as API errors, and a profile as a channel body. */
import { ErrorCode, type ErrorKey } from '../../contract/errors.ts';
import { VIDEO_TEXT_MAX, type VideoChannelBody, type VideoSyncBody } from '../../contract/video.ts';
import { VISIBLE_TEXT_PATTERN } from '../../contract/validation.ts';
import { AppError } from '../../lib/app-error.ts';
import type { OnvifDevice, OnvifProfile } from './onvif-client.ts';
import { OnvifError, type OnvifFailure } from './onvif-soap.ts';
import type { ChannelRow } from './video-repository.ts';

const failureKeys: Record<OnvifFailure, ErrorKey> = {
  AUTH_FAILED: 'error.video.onvifAuthFailed',
  CLOCK_SKEW: 'error.video.onvifClockSkew',
  TIMEOUT: 'error.video.onvifTimeout',
  UNREACHABLE: 'error.video.onvifUnreachable',
  NOT_ONVIF: 'error.video.onvifNotOnvif',
};

/**
 * A sync failure as a 400: each is the camera's or the caller's side (a 401 would read as the
 * console's own session ending). Anything not an OnvifError is our fault and stays a 500.
 */
export function syncError(err: unknown, target: string): unknown {
  if (!(err instanceof OnvifError)) return err;
  return new AppError(ErrorCode.BAD_REQUEST_PARAMS, failureKeys[err.failure], { host: target }, { status: 400 });
}

/** `address` without a user name or password: the sync's credentials travel in their own fields. */
export function withoutCredentials(address: string): string {
  try {
    const url = new URL(address);
    url.username = '';
    url.password = '';
    return url.toString();
  } catch {
    return address;
  }
}

/** The characters VISIBLE_TEXT_PATTERN refuses (its negated class, un-negated), so a camera's name passes our own rule. */
const INVISIBLE = new RegExp(VISIBLE_TEXT_PATTERN.replace(/^\^\[\^/, '[').replace(/\]\*\$$/, ']'), 'g');

/** A camera's text as one of our names: no control or text-direction characters, at most 64 characters. */
export function cleanText(text: string): string {
  return text.replace(INVISIBLE, ' ').replace(/\s+/g, ' ').trim().slice(0, VIDEO_TEXT_MAX);
}

/**
 * The channel body for one profile. A re-synced channel keeps what a user set on it (name,
 * organization, bound device, codes); the address and credentials are the device's.
 */
export function syncedBody(input: { sync: VideoSyncBody; device: OnvifDevice; profile: OnvifProfile; index: number; existing: ChannelRow | undefined }): VideoChannelBody {
  const { sync, device, profile, index, existing } = input;
  const model = device.model ? cleanText(device.model) : null;
  return {
    name: existing?.name ?? (cleanText(`${model ?? sync.host} ${profile.name}`) || profile.token.slice(0, VIDEO_TEXT_MAX)),
    manufacturer: 'other',
    rtspAddress: withoutCredentials(profile.uri),
    username: sync.username,
    password: sync.password,
    model: model || null,
    organizationId: existing?.organizationId ?? null,
    deviceId: existing?.deviceId ?? null,
    deviceKind: existing?.deviceKind ?? (device.profiles.length > 3 ? 'NVR' : 'CAMERA'),
    channelNo: existing?.channelNo ?? Math.min(index + 1, 512),
    streamType: existing?.streamType ?? 'master',
    nationalCode: existing?.nationalCode ?? null,
    channelCode: existing?.channelCode ?? null,
  };
}
