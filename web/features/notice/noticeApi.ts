/** Notice calls over the contract. Saves are silent (the drawer shows failures on their fields). */
import type { DeleteResult } from '../../../server/contract/common.ts';
import { noticeRoutes, type Notice, type NoticeBody, type NoticeUpdateBody } from '../../../server/contract/notice.ts';
import { api } from '../../lib/api-client.ts';

export function createNotice(body: NoticeBody): Promise<Notice> {
  return api(noticeRoutes.create, { body, silent: true });
}

export function updateNotice(body: NoticeUpdateBody): Promise<Notice> {
  return api(noticeRoutes.update, { body, silent: true });
}

export function deleteNotices(ids: string[]): Promise<DeleteResult> {
  return api(noticeRoutes.delete, { body: { ids } });
}

export function publishNotice(id: string): Promise<Notice> {
  return api(noticeRoutes.publish, { params: { id } });
}

export async function markNoticeRead(id: string): Promise<void> {
  await api(noticeRoutes.read, { params: { id }, silent: true });
}
