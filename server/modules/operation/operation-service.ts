/**
 * Banners and guide entries: the records operation management keeps for the login page and the
 * workbench. Images arrive as a store file or a data URI; a data URI is checked by content here.
 */
import type { DeleteResult, PageQuery } from '../../contract/common.ts';
import { ErrorCode } from '../../contract/errors.ts';
import type { OperationCreateBody, OperationEntry, OperationKind, OperationPage, OperationUpdateBody, ShownEntry } from '../../contract/operation.ts';
import type { Db } from '../../db/sqlite.ts';
import { AppError } from '../../lib/app-error.ts';
import { newId } from '../../lib/ids.ts';
import { checkImageRef } from '../../lib/image-signature.ts';
import { OperationRepository } from './operation-repository.ts';

export class OperationService {
  private readonly entries: OperationRepository;

  constructor(db: Db) {
    this.entries = new OperationRepository(db);
  }

  page(kind: OperationKind, query: PageQuery): OperationPage {
    return this.entries.page(kind, query);
  }

  shown(kind: OperationKind): ShownEntry[] {
    return this.entries.shown(kind);
  }

  create(kind: OperationKind, body: OperationCreateBody): OperationEntry {
    checkImageRef(body.image);
    const entry: OperationEntry = { ...body, id: newId(), name: body.name.trim(), remark: body.remark.trim(), createTime: Date.now() };
    this.entries.insert(kind, entry);
    return entry;
  }

  update(kind: OperationKind, body: OperationUpdateBody): OperationEntry {
    const existing = this.entries.find(kind, body.id);
    if (!existing) throw new AppError(ErrorCode.ITEM_NOT_FOUND, 'error.notFound');
    checkImageRef(body.image);
    const entry: OperationEntry = { ...existing, ...body, name: body.name.trim(), remark: body.remark.trim() };
    this.entries.update(kind, entry);
    return entry;
  }

  delete(kind: OperationKind, ids: readonly string[]): DeleteResult {
    return { deleted: this.entries.delete(kind, ids) };
  }
}
