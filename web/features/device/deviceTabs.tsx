/**
 * The device detail page's tab bar (spec section 2: thing-model data, alarm, command delivery
 * record, event management, task, device credentials, video channel), as data. A later issue adds
 * its tab here (one entry with a lazily loaded panel) and never edits the page. Tabs a version
 * does not have are simply absent.
 *
 * Sort slots, in the spec's order: basic info 10, thing-model data 20, alarm 30, command delivery
 * record 40, event management 50, task 60, device credentials 70, video channel 80.
 */
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import type { Device } from '../../../server/contract/device.ts';

export interface DeviceTabProps {
  device: Device;
  /** A panel changed the device (edit, location, flags): the header and other tabs show the new one. */
  onDeviceChange: (device: Device) => void;
}

export interface DeviceTab {
  /** Also the last path segment (`/device-manage/device/<id>/<key>`), so a tab can be linked to. */
  key: string;
  /** `namespace:key` of the tab title. */
  titleKey: `${string}:${string}`;
  sort: number;
  panel: LazyExoticComponent<ComponentType<DeviceTabProps>>;
}

function panel<K extends string>(load: () => Promise<Record<K, ComponentType<DeviceTabProps>>>, name: K): DeviceTab['panel'] {
  return lazy(() => load().then((m) => ({ default: m[name] })));
}

const tabs: DeviceTab[] = [
  {
    key: 'info',
    titleKey: 'device:tabs.info',
    sort: 10,
    panel: panel(() => import('./DeviceInfoTab.tsx'), 'DeviceInfoTab'),
  },
  {
    key: 'credentials',
    titleKey: 'credentials:tab',
    sort: 70,
    panel: panel(() => import('./CredentialsTab.tsx'), 'CredentialsTab'),
  },
];

/** The tabs in display order. */
export function deviceTabs(): readonly DeviceTab[] {
  return [...tabs].sort((a, b) => a.sort - b.sort);
}

/** The tab a path segment names, or the first tab. */
export function deviceTabFor(segment: string | undefined): DeviceTab {
  const all = deviceTabs();
  return all.find((tab) => tab.key === segment) ?? all[0]!;
}

/** The namespaces the tab titles come from (loaded together with the page). */
export function deviceTabNamespaces(): string[] {
  return [...new Set(deviceTabs().map((tab) => tab.titleKey.split(':')[0]!))];
}
