/**
 * The device detail page's tab bar (spec section 2: thing-model data, alarm, command delivery
 * record, event management, task, device credentials, video channel), as data. A later issue adds
 * its tab here (one entry with a lazily loaded panel) and never edits the page, e.g.
 * `{ key: 'thingModel', titleKey: 'telemetry:tab', sort: 20, panel: lazyPanel(() => import(…), 'ThingModelDataTab') }`.
 * Tabs a version does not have are simply absent. The key is the page's last path segment
 * (`/device-manage/device/<id>/<key>`), so a tab can be linked to (the alarm record links `alarm`).
 *
 * Sort slots, in the spec's order: basic info 10, thing-model data 20, alarm 30, command delivery
 * record 40, event management 50, task 60, device credentials 70, video channel 80.
 */
import type { Device } from '../../../server/contract/device.ts';
import { lazyPanel, tabRegistry } from '../../lib/tab-registry.ts';

export interface DeviceTabProps {
  device: Device;
  /** A panel changed the device (edit, location, flags): the header and other tabs show the new one. */
  onDeviceChange: (device: Device) => void;
}

export const deviceTabs = tabRegistry<DeviceTabProps>([
  {
    key: 'info',
    titleKey: 'device:tabs.info',
    sort: 10,
    panel: lazyPanel(() => import('./DeviceInfoTab.tsx'), 'DeviceInfoTab'),
  },
  {
    key: 'thingModel',
    titleKey: 'telemetry:tab',
    sort: 20,
    panel: lazyPanel(() => import('../telemetry/ThingModelDataTab.tsx'), 'ThingModelDataTab'),
  },
  {
    key: 'command',
    titleKey: 'command:tab',
    sort: 40,
    panel: lazyPanel(() => import('../command/CommandTab.tsx'), 'CommandTab'),
  },
  {
    key: 'event',
    titleKey: 'event:tab',
    sort: 50,
    panel: lazyPanel(() => import('../event/EventTab.tsx'), 'EventTab'),
  },
  {
    key: 'credentials',
    titleKey: 'credentials:tab',
    sort: 70,
    panel: lazyPanel(() => import('./CredentialsTab.tsx'), 'CredentialsTab'),
  },
]);
