/** Calls of the gateway's firmware update (server/contract/firmware.ts). */
import { firmwareRoutes, type FirmwareList, type FirmwareUploadResult } from '../../../server/contract/firmware.ts';
import { acceptLanguage, type Language } from '../../../server/contract/languages.ts';
import { i18n } from '../../i18n/i18n.ts';
import { api } from '../../lib/api-client.ts';
import { getSession } from '../../stores/session.ts';

/** `silent` while polling a gateway that is restarting: its absence is expected, not an error to show. */
export function loadFirmware(silent = false): Promise<FirmwareList> {
  return api(firmwareRoutes.list, { silent });
}

export function applyFirmware(id: string, allowDowngrade: boolean): Promise<unknown> {
  return api(firmwareRoutes.apply, { params: { id }, body: { allowDowngrade } });
}

/**
 * Uploads a `.fw`, reporting the share sent (0-100). Through XMLHttpRequest because fetch reports
 * no upload progress, and a package is ~40 MB. Rejects with the server's localized message.
 */
export function uploadFirmware(file: File, onProgress: (percent: number) => void): Promise<FirmwareUploadResult> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(firmwareRoutes.upload.method, firmwareRoutes.upload.url);
    const token = getSession().token;
    if (token) xhr.setRequestHeader('authorization', `Bearer ${token}`);
    xhr.setRequestHeader('accept-language', acceptLanguage[(i18n.language as Language) ?? 'zh_CN'] ?? 'zh-CN');
    xhr.upload.onprogress = (e) => e.lengthComputable && onProgress(Math.floor((e.loaded / e.total) * 100));
    xhr.onerror = () => reject(new Error(i18n.t('http:failed')));
    xhr.onload = () => {
      let body: { message?: string } | null = null;
      try {
        body = JSON.parse(xhr.responseText) as { message?: string };
      } catch {
        // Not JSON: a proxy's page; the generic text below says it failed.
      }
      if (xhr.status === 200 && body) resolve(body as FirmwareUploadResult);
      else reject(new Error(body?.message ?? i18n.t('http:failed')));
    };
    const form = new FormData();
    form.append('file', file, file.name);
    xhr.send(form);
  });
}
