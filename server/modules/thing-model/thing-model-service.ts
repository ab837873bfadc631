/**
 * Thing models: draft edits under the item rules, publication as numbered versions (with the
 * product), draft-against-published status, TSL export and all-or-nothing import, and the cached
 * published model other modules check device data against.
 */
import type { DeleteResult } from '../../contract/common.ts';
import { ErrorCode } from '../../contract/errors.ts';
import type { Product } from '../../contract/product.ts';
import { isObject } from '../../contract/rules/problem.ts';
import {
  TSL_ENTRY_DEPTH_MAX,
  TSL_FORMAT,
  type ThingModelItem,
  type ThingModelItemBody,
  type ThingModelItemUpdateBody,
  type ThingModelListQuery,
  type ThingModelPage,
  type ThingModelStatus,
  type ThingModelTsl,
  type TslImportBody,
  type TslImportResult,
} from '../../contract/thing-model.ts';
import { transaction, type Db } from '../../db/sqlite.ts';
import { AppError } from '../../lib/app-error.ts';
import type { EventBus } from '../../lib/event-bus.ts';
import { notFound, violationError, type Violation } from '../../lib/field-errors.ts';
import { newId } from '../../lib/ids.ts';
import { nestsDeeperThan } from '../../lib/json-depth.ts';
import type { ProductService } from '../product/product-service.ts';
import { deviceDataChecks, type ModelChecks } from './device-data-checks.ts';
import { checkItem, checkItemOutline, under, type ItemDraft } from './item-rules.ts';
import { publishedModelOf, type PublishedModel } from './published-model.ts';
import { checkPropertyWrite, checkServiceInput } from './thing-model-check.ts';
import { ThingModelRepository, type StoredItem } from './thing-model-repository.ts';
import { tslEntries, tslGroups } from './tsl.ts';

export interface ThingModelServiceDeps {
  db: Db;
  bus: EventBus;
  items: ThingModelRepository;
  products: Pick<ProductService, 'find' | 'publish'>;
}

/** The latest published version, with each item's content for draft comparison. */
interface PublishedState {
  model: PublishedModel;
  items: StoredItem[];
  contentById: Map<string, string>;
}

/** Most details an import refusal lists; `count` in its message gives the whole number. */
const IMPORT_DETAILS_MAX = 200;

/** What an item says, without id, product and times: equal contents mean an unchanged item. */
function contentOf(item: StoredItem): string {
  const { functionType, functionName, identifier, accessMode, eventType, callType, functionJson, extensionDesc } = item;
  return JSON.stringify([functionType, functionName, identifier, accessMode, eventType, callType, functionJson, extensionDesc]);
}

function differs(items: readonly StoredItem[], published: ReadonlyMap<string, string>): boolean {
  return items.length !== published.size || items.some((item) => published.get(item.id) !== contentOf(item));
}

/** A check's verdict for another module; null when the product has no published model. */
export type ModelVerdict = { ok: true } | { ok: false; reason: string } | null;

function verdict(result: { ok: true } | { ok: false; reason: string }): ModelVerdict {
  return result.ok ? { ok: true } : { ok: false, reason: result.reason };
}

export class ThingModelService {
  /** Per product: its published state, or null when nothing is published. Filled on first use. */
  private readonly published = new Map<string, PublishedState | null>();
  /** Reported telemetry, attributes and events against the published model (telemetry ingestion). */
  readonly deviceData: ModelChecks = deviceDataChecks((id) => this.getPublished(id));

  constructor(private readonly deps: ThingModelServiceDeps) {
    // Publishing a product publishes its model with it (no-op when the draft is empty or unchanged).
    deps.bus.on('product.published', ({ productId }) => {
      if (this.snapshot(productId, false)) deps.bus.emit('thingModel.published', { deviceProfileId: productId });
    });
    deps.bus.on('product.deleted', ({ productId }) => this.published.delete(productId));
  }

  /**
   * The product's published model, or null when none is published (or the product does not exist).
   * Cached until the next publication; the same object is handed out meanwhile.
   */
  getPublished(deviceProfileId: string): PublishedModel | null {
    return this.state(deviceProfileId)?.model ?? null;
  }

  /** A SERVICE command's inputs against the published model; null when none is published. */
  checkServiceCall(deviceProfileId: string, identifier: string, params: Record<string, unknown>): ModelVerdict {
    const model = this.getPublished(deviceProfileId);
    return model && verdict(checkServiceInput(model, identifier, params));
  }

  /** An ATTRIBUTE command's value against its writable property; null when no model is published. */
  checkPropertyWrite(deviceProfileId: string, key: string, value: unknown): ModelVerdict {
    const model = this.getPublished(deviceProfileId);
    return model && verdict(checkPropertyWrite(model, key, value));
  }

  page(deviceProfileId: string, query: ThingModelListQuery): ThingModelPage {
    this.product(deviceProfileId);
    const { items, total } = this.deps.items.page(deviceProfileId, query);
    const state = this.state(deviceProfileId);
    return { items: items.map((item) => this.withStatus(item, state)), total };
  }

  create(body: ThingModelItemBody): ThingModelItem {
    const product = this.deps.products.find(body.deviceProfileId);
    if (!product) throw violationError([{ field: 'deviceProfileId', key: 'error.thingModel.productNotFound' }]);
    return transaction(this.deps.db, () => {
      const draft = this.checked(body, product, undefined);
      const now = Date.now();
      const item: StoredItem = { id: newId(), deviceProfileId: product.id, ...draft, createdTime: now, updatedTime: now };
      this.deps.items.insert(item);
      return this.withStatus(item, this.state(product.id));
    });
  }

  update(body: ThingModelItemUpdateBody): ThingModelItem {
    return transaction(this.deps.db, () => {
      const current = this.deps.items.findById(body.id);
      if (!current) throw notFound();
      if (body.deviceProfileId !== current.deviceProfileId) {
        throw violationError([{ field: 'deviceProfileId', key: 'error.thingModel.productChanged' }]);
      }
      const draft = this.checked(body, this.product(current.deviceProfileId), current.id);
      const item: StoredItem = { ...current, ...draft, updatedTime: Date.now() };
      this.deps.items.update(item);
      return this.withStatus(item, this.state(item.deviceProfileId));
    });
  }

  /** Unknown ids are skipped. Published versions keep deleted items until the next publication. */
  delete(ids: readonly string[]): DeleteResult {
    return transaction(this.deps.db, () => ({
      deleted: [...new Set(ids)].filter((id) => this.deps.items.delete(id)).length,
    }));
  }

  /**
   * Publishes the draft as the next version (none when it equals the latest) and the product with it.
   * An empty draft is refused.
   */
  publish(deviceProfileId: string): ThingModelStatus {
    this.product(deviceProfileId);
    const changed = this.snapshot(deviceProfileId, true);
    // Marks the product PUBLISHED; its product.published finds the draft already published.
    this.deps.products.publish(deviceProfileId);
    if (changed) this.deps.bus.emit('thingModel.published', { deviceProfileId });
    return this.status(deviceProfileId);
  }

  status(deviceProfileId: string): ThingModelStatus {
    const product = this.product(deviceProfileId);
    const items = this.deps.items.all(deviceProfileId);
    const state = this.state(deviceProfileId);
    return {
      deviceProfileId,
      productStatus: product.status,
      draftItemCount: items.length,
      hasUnpublishedChanges: state ? differs(items, state.contentById) : items.length > 0,
      publishedVersion: state?.model.version ?? null,
      publishedTime: state?.model.publishedTime ?? null,
      publishedItemCount: state?.items.length ?? 0,
    };
  }

  exportTsl(deviceProfileId: string, published: boolean): ThingModelTsl {
    const product = this.product(deviceProfileId);
    const state = published ? this.state(deviceProfileId) : null;
    if (published && !state) throw notFound();
    const items = state ? state.items : this.deps.items.all(deviceProfileId);
    return {
      format: TSL_FORMAT,
      deviceProfileId,
      productName: product.name,
      version: state?.model.version ?? null,
      exportedTime: Date.now(),
      ...tslGroups(items),
    };
  }

  /** Replaces the draft with the file's items, all or nothing (see `TslImportResultSchema`). */
  importTsl(deviceProfileId: string, body: TslImportBody): TslImportResult {
    const product = this.product(deviceProfileId);
    const entries = tslEntries(body);
    if (!entries.length) throw violationError([{ field: '', key: 'error.thingModel.tsl.empty' }]);

    const found: Violation[] = [];
    const drafts: ItemDraft[] = [];
    const seen = new Set<string>();
    for (const { functionType, path, raw } of entries) {
      // Before anything recurses into it (the outline check clones the entry).
      if (nestsDeeperThan(raw, TSL_ENTRY_DEPTH_MAX)) {
        found.push({ field: path, key: 'error.thingModel.tsl.tooDeep', params: { max: TSL_ENTRY_DEPTH_MAX } });
        continue;
      }
      const entry = isObject(raw) ? { ...raw, deviceProfileId, functionType } : raw;
      const outline = checkItemOutline(entry, path);
      if (!outline.ok) {
        found.push(...outline.violations);
        continue;
      }
      const { identifier } = outline.body;
      if (seen.has(identifier)) found.push({ field: `${path}.identifier`, key: 'error.thingModel.identifierDuplicate', params: { identifier } });
      seen.add(identifier);
      const checked = checkItem(outline.body, product);
      if (checked.ok) drafts.push(checked.draft);
      else found.push(...under(path, checked.violations));
    }
    if (found.length) {
      const { details } = violationError(found.slice(0, IMPORT_DETAILS_MAX));
      throw new AppError(ErrorCode.BAD_REQUEST_PARAMS, 'error.thingModel.tsl.invalid', { count: found.length }, { status: 400, details });
    }

    const counts = transaction(this.deps.db, () => {
      const { items } = this.deps;
      const current = new Map(items.all(deviceProfileId).map((item) => [item.identifier, item]));
      const now = Date.now();
      let created = 0;
      let updated = 0;
      for (const draft of drafts) {
        const existing = current.get(draft.identifier);
        if (!existing) {
          items.insert({ id: newId(), deviceProfileId, ...draft, createdTime: now, updatedTime: now });
          created += 1;
          continue;
        }
        current.delete(draft.identifier);
        const next: StoredItem = { ...existing, ...draft, updatedTime: now };
        if (contentOf(next) !== contentOf(existing)) {
          items.update(next);
          updated += 1;
        }
      }
      for (const rest of current.values()) items.delete(rest.id);
      return { created, updated, removed: current.size };
    });
    return { ...counts, status: this.status(deviceProfileId) };
  }

  private product(id: string): Product {
    const product = this.deps.products.find(id);
    if (!product) throw notFound();
    return product;
  }

  /** The item's stored form after every rule, or the violations (identifier unique per product). */
  private checked(body: ThingModelItemBody, product: Product, selfId: string | undefined): ItemDraft {
    const result = checkItem(body, product);
    const found = result.ok ? [] : [...result.violations];
    const holder = this.deps.items.idWithIdentifier(product.id, body.identifier);
    if (holder !== undefined && holder !== selfId) found.push({ field: 'identifier', key: 'error.thingModel.identifierTaken' });
    if (!result.ok || found.length) throw violationError(found);
    return result.draft;
  }

  private withStatus(item: StoredItem, state: PublishedState | null): ThingModelItem {
    return { ...item, status: state?.contentById.get(item.id) === contentOf(item) ? 'PUBLISHED' : 'DRAFT' };
  }

  private state(deviceProfileId: string): PublishedState | null {
    let state = this.published.get(deviceProfileId);
    if (state === undefined) {
      const latest = this.deps.items.latestVersion(deviceProfileId);
      state = latest
        ? {
            model: publishedModelOf(deviceProfileId, latest.version, latest.publishedTime, latest.items),
            items: latest.items,
            contentById: new Map(latest.items.map((item) => [item.id, contentOf(item)])),
          }
        : null;
      this.published.set(deviceProfileId, state);
    }
    return state;
  }

  /**
   * Writes the next version when the draft differs from the latest; true when it did. An empty draft
   * is refused when `requireItems`, else left unpublished.
   */
  private snapshot(deviceProfileId: string, requireItems: boolean): boolean {
    const changed = transaction(this.deps.db, () => {
      const items = this.deps.items.all(deviceProfileId);
      if (!items.length) {
        if (requireItems) throw violationError([{ field: 'deviceProfileId', key: 'error.thingModel.emptyModel' }], 'params');
        return false;
      }
      const latest = this.state(deviceProfileId);
      if (latest && !differs(items, latest.contentById)) return false;
      const version = (latest?.model.version ?? 0) + 1;
      this.deps.items.insertVersion(newId(), deviceProfileId, { version, items, publishedTime: Date.now() });
      return true;
    });
    if (changed) this.published.delete(deviceProfileId);
    return changed;
  }
}
