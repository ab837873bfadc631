/**
 * What a tab of the device detail page receives. The tabs themselves are listed in the route table
 * (web/routes.tsx, `deviceTabs`), each panel in the feature that owns it; this file imports no
 * panel, so a panel importing these props makes no import cycle.
 */
import type { Device } from '../../../server/contract/device.ts';
import type { TabEntry, TabRegistry } from '../../lib/tab-registry.ts';

export interface DeviceTabProps {
  device: Device;
  /** A panel changed the device (edit, location, flags): the header and other tabs show the new one. */
  onDeviceChange: (device: Device) => void;
}

export type DeviceTab = TabEntry<DeviceTabProps>;
export type DeviceTabs = TabRegistry<DeviceTabProps>;
