/** Device detail → video channel tab: the channels bound to this device, with their live previews. */
import type { JSX } from 'react';
import { videoRoutes } from '../../../server/contract/video.ts';
import { useList } from '../../lib/use-list.ts';
import type { DeviceTabProps } from '../device/deviceTab.ts';
import { VideoChannelTable } from './VideoChannelTable.tsx';

export function VideoChannelTab({ device }: DeviceTabProps): JSX.Element {
  const list = useList(videoRoutes.list, { scope: { deviceId: device.id }, syncUrl: false });
  return <VideoChannelTable list={list} testId="device-video" deviceId={device.id} />;
}
