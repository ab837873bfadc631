/** Devices in use against the licence's limit, as the licence views show it. */

export interface DeviceUsage {
  used: number;
  /** null: the licence sets no limit (`maxDevices` 0). */
  max: number | null;
  /** No device can be added: creating one would be refused with code 41. */
  full: boolean;
}

export function deviceUsage(devicesUsed: number, maxDevices: number): DeviceUsage {
  const max = maxDevices > 0 ? maxDevices : null;
  return { used: devicesUsed, max, full: max !== null && devicesUsed >= max };
}
