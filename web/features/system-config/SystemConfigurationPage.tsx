/**
 * System → system configuration. History storage (retention, the disk budget, per product usage)
 * is built; basic info, cloud platform, licence, network and reset (console spec, System screens)
 * come later.
 */
import type { JSX } from 'react';
import { HistoryStorageCard } from './HistoryStorageCard.tsx';

export function SystemConfigurationPage(): JSX.Element {
  return (
    <div data-testid="system-configuration">
      <HistoryStorageCard />
    </div>
  );
}
