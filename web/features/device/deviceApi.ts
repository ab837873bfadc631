/**
 * Device calls over the contract (devices, credentials, import, batch generation) and the product
 * options the device forms choose from. Form saves are silent: their failures land on
 * the fields they concern; everything else lets the client show the server's message.
 */
import {
  deviceRoutes,
  type Device,
  type DeviceBody,
  type DeviceListQuery,
  type DeviceLocationBody,
  type DevicePage,
  type DeviceUpdateBody,
} from '../../../server/contract/device.ts';
import {
  credentialsRoutes,
  type DeviceCredentials,
  type DeviceCredentialsBody,
} from '../../../server/contract/credentials.ts';
import {
  deviceImportRoutes,
  type BatchBody,
  type BatchResult,
  type ImportCommitBody,
  type ImportFormat,
  type ImportPreview,
  type ImportResult,
} from '../../../server/contract/device-import.ts';
import { productRoutes, type ProductOption } from '../../../server/contract/product.ts';
import { api } from '../../lib/api-client.ts';

export function listDevices(query: Partial<DeviceListQuery>): Promise<DevicePage> {
  return api(deviceRoutes.list, { query });
}

export function getDevice(id: string): Promise<Device> {
  return api(deviceRoutes.get, { params: { id }, silent: true });
}

export function createDevice(body: DeviceBody): Promise<Device> {
  return api(deviceRoutes.create, { body, silent: true });
}

export function updateDevice(body: DeviceUpdateBody): Promise<Device> {
  return api(deviceRoutes.update, { body, silent: true });
}

export async function deleteDevices(ids: string[]): Promise<number> {
  const { deleted } = await api(deviceRoutes.delete, { body: { ids } });
  return deleted;
}

export function setCollect(id: string, isCollect: boolean): Promise<Device> {
  return api(deviceRoutes.collect, { params: { id }, body: { isCollect } });
}

export function setPublic(id: string, isPublic: boolean): Promise<Device> {
  return api(deviceRoutes.public, { params: { id }, body: { isPublic } });
}

export function setLocation(id: string, body: DeviceLocationBody): Promise<Device> {
  return api(deviceRoutes.location, { params: { id }, body, silent: true });
}

export function getCredentials(id: string): Promise<DeviceCredentials> {
  return api(credentialsRoutes.get, { params: { id } });
}

export function updateCredentials(id: string, body: DeviceCredentialsBody): Promise<DeviceCredentials> {
  return api(credentialsRoutes.update, { params: { id }, body, silent: true });
}

export function regenerateToken(id: string): Promise<DeviceCredentials> {
  return api(credentialsRoutes.regenerate, { params: { id } });
}

/** Every product, for the product selects (`me/list`). */
export function listProductOptions(): Promise<ProductOption[]> {
  return api(productRoutes.options);
}

/** Select file: the CSV goes up, the header, a sample and the server's suggested mapping come back. */
export function previewImport(file: File): Promise<ImportPreview> {
  const form = new FormData();
  form.append('file', file, file.name);
  return api(deviceImportRoutes.preview, { form, silent: true, timeoutMs: 60_000 });
}

/** Create entity: up to 10,000 rows checked and inserted, so it may take longer than a plain call. */
export function commitImport(body: ImportCommitBody): Promise<ImportResult> {
  return api(deviceImportRoutes.commit, { body, silent: true, timeoutMs: 120_000 });
}

export function generateBatch(body: BatchBody): Promise<BatchResult> {
  return api(deviceImportRoutes.batch, { body, silent: true, timeoutMs: 60_000 });
}

/** The rejected rows of a committed import as a CSV or .xlsx blob (fetched with the bearer token). */
export async function fetchRejectedRows(importId: string, format: ImportFormat): Promise<Blob> {
  return (await api(deviceImportRoutes.rejectedCsv, { params: { importId }, query: { format }, responseType: 'blob' })) as unknown as Blob;
}

/** A generated batch (name, alias, token) as a CSV blob. */
export async function fetchBatchCsv(batchId: string): Promise<Blob> {
  return (await api(deviceImportRoutes.batchCsv, { params: { batchId }, responseType: 'blob' })) as unknown as Blob;
}
