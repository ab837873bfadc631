/** Operation management → licence: the very card System configuration shows (status, limits, renewal). */
import type { JSX } from 'react';
import { LicenseCard } from '../system-config/LicenseCard.tsx';

export function LicenseManagePage(): JSX.Element {
  return <LicenseCard />;
}
