/** Installing a renewal `.lic` from a signed-in page (the user menu's dialog, the licence tab). */
import { useState } from 'react';
import type { LicenseInfo } from '../../../server/contract/license.ts';
import { errorMessage } from '../../lib/error-text.ts';
import { uploadLicense } from './licenseApi.ts';

export interface LicenseInstall {
  uploading: boolean;
  error: string | null;
  setError: (message: string | null) => void;
  install: (file: File) => Promise<void>;
}

export function useLicenseInstall(onInstalled: (info: LicenseInfo) => void, onFailed?: () => void): LicenseInstall {
  const [uploading, setUploading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const install = async (file: File): Promise<void> => {
    setUploading(true);
    setError(null);
    try {
      onInstalled(await uploadLicense(file));
    } catch (err) {
      onFailed?.();
      setError(errorMessage(err));
    } finally {
      setUploading(false);
    }
  };
  return { uploading, error, setError, install };
}
