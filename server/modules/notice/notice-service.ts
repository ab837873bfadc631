/** Rules of notices: sanitized content, receivers checked, drafts edited, publishing fixes the receivers. */
import type { DeleteResult } from '../../contract/common.ts';
import { ErrorCode } from '../../contract/errors.ts';
import type { MyNoticePage, MyNoticeQuery, Notice, NoticeBody, NoticeListQuery, NoticeUpdateBody } from '../../contract/notice.ts';
import type { AuthUser, Core } from '../../core.ts';
import { transaction } from '../../db/sqlite.ts';
import { AppError } from '../../lib/app-error.ts';
import { assertNoViolations, notFound, type Violation } from '../../lib/field-errors.ts';
import { newId } from '../../lib/ids.ts';
import { sanitizeHtml } from './html-sanitizer.ts';
import type { NoticeReceivers } from './notice-receivers.ts';
import type { NoticeRepository } from './notice-repository.ts';

export interface NoticeServiceDeps {
  core: Core;
  notices: NoticeRepository;
  receivers: NoticeReceivers;
}

export class NoticeService {
  constructor(private readonly deps: NoticeServiceDeps) {}

  page(query: NoticeListQuery): { items: Notice[]; total: number } {
    return this.deps.notices.page(query);
  }

  get(id: string): Notice {
    const notice = this.deps.notices.findById(id);
    if (!notice) throw notFound();
    return notice;
  }

  create(body: NoticeBody, author: AuthUser): Notice {
    const now = Date.now();
    const notice: Notice = {
      id: newId(),
      ...this.fields(body),
      status: 'DRAFT',
      createdBy: author.id,
      createdTime: now,
      updatedTime: now,
      publishedTime: null,
    };
    this.deps.notices.insert(notice);
    return notice;
  }

  update(body: NoticeUpdateBody): Notice {
    return transaction(this.deps.core.db, () => {
      const current = this.draft(body.id);
      const notice: Notice = { ...current, ...this.fields(body), updatedTime: Date.now() };
      this.deps.notices.update(notice);
      return notice;
    });
  }

  delete(ids: readonly string[]): DeleteResult {
    return { deleted: transaction(this.deps.core.db, () => this.deps.notices.delete(ids)) };
  }

  /**
   * Receivers are resolved now, once: a user who joins later does not get an old notice. Announced
   * as `notice.published` for the header bell.
   */
  publish(id: string): Notice {
    const { notice, userIds } = transaction(this.deps.core.db, () => {
      const now = Date.now();
      const draft = this.draft(id);
      const published: Notice = { ...draft, status: 'PUBLISHED', publishedTime: now, updatedTime: now };
      const userIds = this.deps.receivers.resolve(published.receiverType, published.receiverIds);
      this.deps.notices.update(published);
      this.deps.notices.addReceipts(id, userIds);
      return { notice: published, userIds };
    });
    this.deps.core.bus.emit('notice.published', { noticeId: notice.id, userIds });
    return notice;
  }

  mine(user: AuthUser, query: MyNoticeQuery): MyNoticePage {
    return this.deps.notices.mine(user.id, query.unreadOnly ?? false, query.page, query.pageSize);
  }

  /** 404 when the caller is not a receiver: another user's notice is not confirmed to exist. */
  markRead(user: AuthUser, id: string): void {
    if (!this.deps.notices.markRead(id, user.id, Date.now())) throw notFound();
  }

  private draft(id: string): Notice {
    const notice = this.get(id);
    if (notice.status !== 'DRAFT') throw new AppError(ErrorCode.VERSION_CONFLICT, 'error.notice.published', {}, { status: 409 });
    return notice;
  }

  private fields(body: NoticeBody): Pick<Notice, 'type' | 'title' | 'content' | 'receiverType' | 'receiverIds'> {
    const receiverIds = body.receiverType === 'ALL' ? [] : [...new Set(body.receiverIds ?? [])];
    const violations: Violation[] = [];
    if (body.receiverType !== 'ALL' && receiverIds.length === 0) violations.push({ field: 'receiverIds', key: 'error.notice.receiversRequired' });
    const unknown = this.deps.receivers.unknown(body.receiverType, receiverIds);
    if (unknown.length > 0) violations.push({ field: 'receiverIds', key: 'error.notice.receiverUnknown', params: { ids: unknown.join(', ') } });
    if (body.title.trim() === '') violations.push({ field: 'title', key: 'error.notice.title' });
    assertNoViolations(violations);
    return { type: body.type, title: body.title.trim(), content: sanitizeHtml(body.content), receiverType: body.receiverType, receiverIds };
  }
}
