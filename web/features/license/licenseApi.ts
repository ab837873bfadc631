/** Licence calls: the public status (asked silently: a failure shows no message) and the `.lic` upload. */
import { licenseRoutes, SETUP_CODE_HEADER, type LicenseInfo } from '../../../server/contract/license.ts';
import { api } from '../../lib/api-client.ts';

export function findLicense(): Promise<LicenseInfo> {
  return api(licenseRoutes.find, { silent: true });
}

/**
 * Uploads a `.lic` file (multipart field `file`). During first boot nobody can sign in, so the
 * setup code authorizes the call; afterwards the caller's bearer token does.
 */
export function uploadLicense(file: File, setupCode?: string): Promise<LicenseInfo> {
  const form = new FormData();
  form.append('file', file, file.name);
  return api(licenseRoutes.upload, {
    form,
    headers: setupCode ? { [SETUP_CODE_HEADER]: setupCode } : undefined,
    silent: true,
  });
}
