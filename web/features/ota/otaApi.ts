/** Device firmware (OTA) calls over the contract (server/contract/ota.ts). */
import {
  otaRoutes,
  type OtaAssignBody,
  type OtaChecksumAlgorithm,
  type OtaDevice,
  type OtaPackage,
  type OtaSettings,
} from '../../../server/contract/ota.ts';
import { api } from '../../lib/api-client.ts';

export function listOtaPackages(productId: string): Promise<OtaPackage[]> {
  return api(otaRoutes.list, { params: { id: productId } });
}

export interface OtaUploadValues {
  title: string;
  version: string;
  checksumAlgorithm: OtaChecksumAlgorithm;
  checksum?: string;
}

/** The text fields go first: the server reads them before the file streams in. */
export function uploadOtaPackage(productId: string, values: OtaUploadValues, file: File): Promise<OtaPackage> {
  const form = new FormData();
  form.append('title', values.title);
  form.append('version', values.version);
  form.append('checksumAlgorithm', values.checksumAlgorithm);
  if (values.checksum) form.append('checksum', values.checksum.trim());
  form.append('file', file, file.name);
  return api(otaRoutes.upload, { params: { id: productId }, form, silent: true });
}

export function deleteOtaPackage(id: string, force: boolean): Promise<unknown> {
  return api(otaRoutes.remove, { params: { id }, query: force ? { force: true } : {}, silent: true });
}

export function assignOtaPackage(id: string, body: OtaAssignBody): Promise<{ queued: number }> {
  return api(otaRoutes.assign, { params: { id }, body });
}

export function loadOtaDevices(id: string): Promise<OtaDevice[]> {
  return api(otaRoutes.devices, { params: { id } });
}

export function loadOtaSettings(): Promise<OtaSettings> {
  return api(otaRoutes.settings);
}

export function saveOtaSettings(settings: OtaSettings): Promise<OtaSettings> {
  return api(otaRoutes.saveSettings, { body: settings });
}
