/** Colours of device enum tags (Arco tag colours), the same on every device screen. */
import type { DeviceState } from '../../../server/contract/device.ts';
import type { DeviceType } from '../../../server/contract/product.ts';

export const deviceStateColors: Record<DeviceState, string> = {
  INACTIVE: 'gray',
  ONLINE: 'green',
  OFFLINE: 'red',
  ACTIVE: 'arcoblue',
};

export const deviceTypeColors: Record<DeviceType, string> = {
  DIRECT_CONNECTION: 'arcoblue',
  GATEWAY: 'purple',
  SENSOR: 'cyan',
};
