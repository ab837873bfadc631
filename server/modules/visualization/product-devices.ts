/** A product's devices of the moment, for alarm lists that name a product (share-service.ts). */
import type { DeviceListQuery, DevicePage } from '../../contract/device.ts';

/** The device list's largest page. */
const READ_PAGE = 100;

/** The ids of `productId`'s devices within `organizationId` and its descendants (null: all), oldest first, at most `limit`. */
export function productDeviceIds(
  devices: { page(query: DeviceListQuery): DevicePage },
  { productId, organizationId, limit }: { productId: string; organizationId: string | null; limit: number },
): string[] {
  const ids: string[] = [];
  for (let page = 1; ids.length < limit; page += 1) {
    const { items } = devices.page({ page, pageSize: READ_PAGE, deviceProfileId: productId, ...(organizationId ? { organizationId } : {}), sortField: 'createdTime', sortOrder: 'ascend' });
    for (const d of items) if (ids.length < limit) ids.push(d.id);
    if (items.length < READ_PAGE) break;
  }
  return ids;
}
