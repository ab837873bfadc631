/**
 * System → system configuration. The cloud platform, history storage (retention, the disk budget,
 * per product usage) and the map's tile server are built; basic info, licence, network and reset
 * (console spec, System screens) come later.
 */
import type { JSX } from 'react';
import { CloudSettingsCard } from './CloudSettingsCard.tsx';
import { HistoryStorageCard } from './HistoryStorageCard.tsx';
import { MapSettingsCard } from './MapSettingsCard.tsx';
import './system-config.css';

export function SystemConfigurationPage(): JSX.Element {
  return (
    <div className="ec-system-config" data-testid="system-configuration">
      <CloudSettingsCard />
      <HistoryStorageCard />
      <MapSettingsCard />
    </div>
  );
}
