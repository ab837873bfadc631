/**
 * Every device choice of the console: searches `GET /api/yt/device?name=` (substring of the name or
 * the alias) as the user types, a page at a time, and shows each device's name and alias. A form
 * opening with a chosen device shows its name even when it is far beyond the first page.
 *
 * @example
 * <Form.Item field="deviceId" label={t('field.device')}>
 *   <DeviceSelect deviceProfileId={productId} placeholder={t('field.devicePlaceholder')} testId="scene-action-0-device" />
 * </Form.Item>
 */
import type { JSX } from 'react';
import type { Device, DeviceListQuery } from '../../../server/contract/device.ts';
import { RemoteSelect, type RemoteSelectControlProps } from '../../components/RemoteSelect.tsx';
import { fetchEach, REMOTE_PAGE_SIZE, type RemotePage } from '../../components/remote-search.ts';
import { getDevice, listDevices } from './deviceApi.ts';

export interface DeviceSelectProps<V extends string | string[]> extends RemoteSelectControlProps<V> {
  /** Only this product's devices. */
  deviceProfileId?: string;
  /** Only devices of this type (a sensor's gateway: GATEWAY). */
  deviceType?: DeviceListQuery['deviceType'];
  /** A device that is not offered (a device cannot be its own gateway). */
  excludeId?: string;
}

const idOf = (d: Device): string => d.id;
const nameOf = (d: Device): string => d.name;
const aliasOf = (d: Device): string | null => d.alias;

/** Chosen devices by id; one that is gone (deleted) is left out and shows its id. */
const devicesByIds = (ids: string[]): Promise<Device[]> => fetchEach(ids, getDevice);

export function DeviceSelect<V extends string | string[]>(props: DeviceSelectProps<V>): JSX.Element {
  const { deviceProfileId, deviceType, excludeId, ...control } = props;
  const fetchPage = async (name: string, page: number): Promise<RemotePage<Device>> => {
    const answer = await listDevices({ name: name.trim() || undefined, page, pageSize: REMOTE_PAGE_SIZE, deviceProfileId, deviceType, sortField: 'name', sortOrder: 'ascend' });
    // Dropped from the shown page only: the count stays the server's, so paging still ends right.
    return excludeId ? { ...answer, items: answer.items.filter((d) => d.id !== excludeId) } : answer;
  };
  return (
    <RemoteSelect<Device, V>
      fetchPage={fetchPage}
      fetchByIds={devicesByIds}
      idOf={idOf}
      labelOf={nameOf}
      detailOf={aliasOf}
      filterKey={`${deviceProfileId ?? ''}/${deviceType ?? ''}`}
      {...control}
    />
  );
}
