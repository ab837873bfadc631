/**
 * The answers to ThingsBoard's firmware chunk requests (MQTT `v2/fw/request/{requestId}/chunk/{n}`
 * with the chunk size as the payload; HTTP `GET /api/v1/{token}/firmware?…&size=&chunk=`), from
 * the package the OTA module assigned the device, as ThingsBoard's OtaPackageDataCache cuts them:
 * chunk n is the `size` bytes from n × size; past the end the answer is empty; size 0 is the
 * whole package. MQTT remembers a request's chunk size when a later request of it sends none.
 */
import { OTA_CHUNK_MAX_BYTES } from '../../contract/ota.ts';
import { PACKAGE_NOT_FOUND, PACKAGE_TOO_LARGE, type PackageRequest } from './short-topics.ts';

/** A firmware as the transport serves it to one device. */
export interface DevicePackage {
  title: string;
  version: string;
  size: number;
  fileName: string;
  /** `length` bytes from `offset` (fewer at the end of the file). */
  read(offset: number, length: number): Buffer;
}

/** The package assigned to a device and notified to it, or null (the OTA module's). */
export type PackageSource = (deviceId: string, kind: 'fw' | 'sw') => DevicePackage | null;

/** ThingsBoard's ResponseStatus names a device sees on `v2/fw/error`. */
export type PackageFailure = typeof PACKAGE_NOT_FOUND | typeof PACKAGE_TOO_LARGE | 'FAILURE';
export type ChunkAnswer = { payload: Buffer } | { failure: PackageFailure };

/**
 * The most one HTTP answer carries (it is read into memory): ThingsBoard serves any size there,
 * a gateway bounds it; a device asks for chunks below it.
 */
export const HTTP_CHUNK_MAX_BYTES = 4 * 1024 * 1024;

/** Chunk `chunk` of `size` bytes (0: the whole package), or why not (larger than `max`). */
export function cutChunk(pkg: DevicePackage, size: number, chunk: number, max = OTA_CHUNK_MAX_BYTES): ChunkAnswer {
  const length = size > 0 ? size : pkg.size;
  if (length > max) return { failure: PACKAGE_TOO_LARGE };
  const offset = size > 0 ? size * chunk : 0;
  if (offset >= pkg.size) return { payload: Buffer.alloc(0) };
  return { payload: pkg.read(offset, Math.min(length, pkg.size - offset)) };
}

export class PackageChunks {
  /** Chunk sizes by connection and request id, for requests that send an empty payload. */
  private readonly sizes = new WeakMap<object, Map<string, number>>();
  source: PackageSource = () => null;

  /** The answer to an MQTT chunk request of `deviceId` on connection `conn`. */
  answer(conn: object, deviceId: string, request: PackageRequest, payload: Buffer): ChunkAnswer {
    const text = payload.toString('utf8').trim();
    if (text !== '' && !/^\d{1,9}$/.test(text)) return { failure: 'FAILURE' };
    let sizes = this.sizes.get(conn);
    if (!sizes) this.sizes.set(conn, (sizes = new Map()));
    let size = text === '' ? 0 : Number(text);
    if (size > 0) sizes.set(request.requestId, size);
    else size = sizes.get(request.requestId) ?? 0;
    const pkg = this.source(deviceId, request.kind);
    return pkg ? cutChunk(pkg, size, request.chunk) : { failure: PACKAGE_NOT_FOUND };
  }
}
