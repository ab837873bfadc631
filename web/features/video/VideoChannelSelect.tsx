/**
 * A video channel choice: searches `GET /api/yt/video/channel?name=` as the user types, a page at a
 * time, and shows a chosen channel's name even when it is beyond the first page.
 */
import type { JSX } from 'react';
import { videoRoutes, type VideoChannel } from '../../../server/contract/video.ts';
import { RemoteSelect, type RemoteSelectControlProps } from '../../components/RemoteSelect.tsx';
import { fetchEach, REMOTE_PAGE_SIZE, type RemotePage } from '../../components/remote-search.ts';
import { api } from '../../lib/api-client.ts';
import { getChannel } from './videoApi.ts';

const idOf = (c: VideoChannel): string => c.id;
const nameOf = (c: VideoChannel): string => c.name;

const channelsByIds = (ids: string[]): Promise<VideoChannel[]> => fetchEach(ids, getChannel);

const fetchPage = (name: string, page: number): Promise<RemotePage<VideoChannel>> =>
  api(videoRoutes.list, { query: { name: name.trim() || undefined, page, pageSize: REMOTE_PAGE_SIZE } });

export function VideoChannelSelect(props: RemoteSelectControlProps<string>): JSX.Element {
  return <RemoteSelect<VideoChannel, string> fetchPage={fetchPage} fetchByIds={channelsByIds} idOf={idOf} labelOf={nameOf} filterKey="" {...props} />;
}
