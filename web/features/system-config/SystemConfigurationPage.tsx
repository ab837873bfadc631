/**
 * System → system configuration. History storage (retention, the disk budget, per product usage)
 * and the map's tile server are built; basic info, cloud platform, licence, network and reset
 * (console spec, System screens) come later.
 */
import type { JSX } from 'react';
import { HistoryStorageCard } from './HistoryStorageCard.tsx';
import { MapSettingsCard } from './MapSettingsCard.tsx';
import './system-config.css';

export function SystemConfigurationPage(): JSX.Element {
  return (
    <div className="ec-system-config" data-testid="system-configuration">
      <HistoryStorageCard />
      <MapSettingsCard />
    </div>
  );
}
