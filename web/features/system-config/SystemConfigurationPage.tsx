/**
 * System → system configuration, in tabs (console spec, System screens): basic info with the time
 * settings, the cloud platform, the licence, the network (addresses now), history storage and the
 * map, and the factory reset. `?tab=` names the open tab.
 */
import { useCallback, useEffect, useState, type JSX } from 'react';
import Tabs from '@arco-design/web-react/es/Tabs';
import { useTranslation } from 'react-i18next';
import { navigate } from 'wouter/use-browser-location';
import { consolePaths } from '../../../server/contract/console-paths.ts';
import type { SystemInfo } from '../../../server/contract/system.ts';
import { errorMessage } from '../../lib/error-text.ts';
import { confirmLeave } from '../../lib/leave-guard.ts';
import { replaceTabInUrl, tabFromUrl } from '../../lib/tab-query.ts';
import { usePermission } from '../../stores/permissions.ts';
import { BasicInfoCard } from './BasicInfoCard.tsx';
import { CloudSettingsCard } from './CloudSettingsCard.tsx';
import { FactoryResetCard } from './FactoryResetCard.tsx';
import { FirmwareCard } from './FirmwareCard.tsx';
import { HistoryStorageCard } from './HistoryStorageCard.tsx';
import { LicenseCard } from './LicenseCard.tsx';
import { MapSettingsCard } from './MapSettingsCard.tsx';
import { NetworkSummaryCard } from './NetworkSummaryCard.tsx';
import { PortRangeCard } from './PortRangeCard.tsx';
import { loadSystemInfo } from './systemApi.ts';
import { TimeSettingsCard } from './TimeSettingsCard.tsx';
import './system-config.css';

const tabKeys = ['basic', 'cloud', 'license', 'network', 'storage', 'firmware', 'reset'] as const;
type TabKey = (typeof tabKeys)[number];

function tabOfUrl(): TabKey {
  const named = tabFromUrl();
  return (tabKeys as readonly string[]).includes(named ?? '') ? (named as TabKey) : 'basic';
}

/** The basic-info and network tabs share one reading of the machine. */
function useSystemInfo(): { info: SystemInfo | null; failure: string | null; reload: () => void } {
  const [info, setInfo] = useState<SystemInfo | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const reload = useCallback(() => {
    setFailure(null);
    loadSystemInfo().then(setInfo, (err: unknown) => setFailure(errorMessage(err)));
  }, []);
  useEffect(reload, [reload]);
  return { info, failure, reload };
}

export function SystemConfigurationPage(): JSX.Element {
  const { t } = useTranslation('system');
  const [tab, setTab] = useState<TabKey>(tabOfUrl);
  const { info, failure, reload } = useSystemInfo();
  // Gateway firmware is the system administrator's alone (docs/PERMISSIONS.md): others see no tab.
  const mayUpdateFirmware = usePermission('system:firmware');
  const shown = tabKeys.filter((key) => key !== 'firmware' || mayUpdateFirmware);

  // Leaving a tab is leaving its card: an unsaved edit (cloud, retention, map) asks first.
  const select = async (key: string): Promise<void> => {
    if (key === tab || !(await confirmLeave())) return;
    setTab(key as TabKey);
    replaceTabInUrl(key, tabKeys[0]);
  };

  const panes: Record<TabKey, () => JSX.Element> = {
    basic: () => (
      <div className="ec-system-config">
        <BasicInfoCard info={info} failure={failure} onRefresh={reload} />
        <TimeSettingsCard info={info} onSaved={reload} />
      </div>
    ),
    cloud: () => <CloudSettingsCard />,
    license: () => <LicenseCard />,
    network: () => (
      <div className="ec-system-config">
        <NetworkSummaryCard info={info} />
        <PortRangeCard />
      </div>
    ),
    storage: () => (
      <div className="ec-system-config">
        <HistoryStorageCard />
        <MapSettingsCard />
      </div>
    ),
    firmware: () => <FirmwareCard />,
    reset: () => <FactoryResetCard onAccepted={() => navigate(consolePaths.factoryReset)} />,
  };

  return (
    <div data-testid="system-configuration">
      <Tabs activeTab={tab} onChange={(key) => void select(key)} lazyload destroyOnHide>
        {shown.map((key) => (
          <Tabs.TabPane key={key} title={<span data-testid={`system-tab-${key}`}>{t(`tabs.${key}`)}</span>}>
            {key === tab ? panes[key]() : null}
          </Tabs.TabPane>
        ))}
      </Tabs>
    </div>
  );
}
