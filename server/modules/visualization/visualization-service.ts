/**
 * Configuration rules and writes (server/contract/visualization.ts): a layout's size, its bound
 * devices (within the caller's scope when saved) and the organization it belongs to. A scoped
 * caller sees only its organizations' configurations; anything else answers 404.
 */
import type { DeleteResult } from '../../contract/common.ts';
import {
  VIS_IMAGE_SRC_PATTERN,
  VIS_LAYOUT_MAX_BYTES,
  type Layout,
  type Widget,
  type Visualization,
  type VisualizationBody,
  type VisualizationListQuery,
  type VisualizationPage,
  type VisualizationUpdateBody,
} from '../../contract/visualization.ts';
import type { Db } from '../../db/sqlite.ts';
import { transaction } from '../../db/sqlite.ts';
import { inScope, type DeviceScope, type ScopedDevices } from '../../lib/device-scope.ts';
import { assertNoViolations, notFound, type Violation } from '../../lib/field-errors.ts';
import { newId } from '../../lib/ids.ts';
import { VisualizationRepository } from './visualization-repository.ts';

export interface VisualizationServiceDeps {
  db: Db;
  devicesWithin(scope: DeviceScope): ScopedDevices;
  organizationExists(id: string): boolean;
  productExists(id: string): boolean;
  /** Tells live share pages that the configuration or its link changed (`visualization.changed`). */
  announce(visualizationId: string): void;
}

const imageSource = new RegExp(VIS_IMAGE_SRC_PATTERN);

/** An alarm list's devices the caller cannot see and a product that does not exist. */
function alarmSourceViolations(w: Widget, i: number, deps: { devices: ScopedDevices; productExists(id: string): boolean }): Violation[] {
  const source = w.alarmSource;
  if (w.type !== 'alarms' || !source) return [];
  const widget = String(w.props.title ?? w.id);
  const violations: Violation[] = (source.deviceIds ?? []).flatMap((id, j) =>
    deps.devices.exists(id) ? [] : [{ field: `layout.widgets.${i}.alarmSource.deviceIds.${j}`, key: 'error.visualization.deviceUnknown', params: { widget } }],
  );
  if (source.productId !== undefined && !deps.productExists(source.productId)) {
    violations.push({ field: `layout.widgets.${i}.alarmSource.productId`, key: 'error.visualization.productUnknown', params: { widget } });
  }
  return violations;
}

/** Broken rules of a layout: its size, each bound device that the caller cannot see, an alarm list's unknown product, and each image from elsewhere. */
function layoutViolations(layout: Layout, devices: ScopedDevices, productExists: (id: string) => boolean): Violation[] {
  const bytes = Buffer.byteLength(JSON.stringify(layout));
  if (bytes > VIS_LAYOUT_MAX_BYTES) return [{ field: 'layout', key: 'error.visualization.layoutTooLarge', params: { max: VIS_LAYOUT_MAX_BYTES / 1024 } }];
  const violations: Violation[] = [];
  layout.widgets.forEach((w, i) => {
    if (w.binding && !devices.exists(w.binding.deviceId)) {
      violations.push({ field: `layout.widgets.${i}.binding.deviceId`, key: 'error.visualization.deviceUnknown', params: { widget: String(w.props.title ?? w.id) } });
    }
    violations.push(...alarmSourceViolations(w, i, { devices, productExists }));
    const src = w.props.src;
    if (w.type === 'image' && src !== undefined && src !== null && !(typeof src === 'string' && imageSource.test(src))) {
      violations.push({ field: `layout.widgets.${i}.props.src`, key: 'error.visualization.imageSource', params: { widget: String(w.props.title ?? w.id) } });
    }
  });
  return violations;
}

export class VisualizationService {
  readonly rows: VisualizationRepository;

  constructor(private readonly deps: VisualizationServiceDeps) {
    this.rows = new VisualizationRepository(deps.db);
  }

  page(query: VisualizationListQuery, scope: DeviceScope): VisualizationPage {
    return this.rows.page(query, scope?.organizationIds ?? null, Date.now());
  }

  /** The configuration, or 404 when missing or outside `scope` (as if it did not exist). */
  get(id: string, scope: DeviceScope): Visualization {
    const found = this.rows.find(id, Date.now());
    if (!found || !inScope(scope, found.organizationId)) throw notFound();
    return found;
  }

  /** Without the scope check: for share links, which stand for the user who made them. */
  find(id: string): Visualization | undefined {
    return this.rows.find(id, Date.now());
  }

  create(body: VisualizationBody, scope: DeviceScope): Visualization {
    this.check(body, scope);
    const now = Date.now();
    const v = this.of(newId(), body, now, now);
    this.rows.save(v);
    return this.get(v.id, scope);
  }

  update(body: VisualizationUpdateBody, scope: DeviceScope): Visualization {
    const { id, ...fields } = body;
    const existing = this.get(id, scope);
    this.check(fields, scope);
    this.rows.save(this.of(id, fields, existing.createdTime, Date.now()));
    this.deps.announce(id);
    return this.get(id, scope);
  }

  delete(ids: readonly string[], scope: DeviceScope): DeleteResult {
    const mine = ids.filter((id) => {
      const found = this.rows.find(id, 0);
      return found !== undefined && inScope(scope, found.organizationId);
    });
    const deleted = transaction(this.deps.db, () => this.rows.delete(mine));
    for (const id of mine) this.deps.announce(id);
    return { deleted };
  }

  /** See VisualizationServiceDeps.announce: for the share links' own changes. */
  announce(visualizationId: string): void {
    this.deps.announce(visualizationId);
  }

  private check(body: VisualizationBody, scope: DeviceScope): void {
    const org = body.organizationId ?? null;
    const orgViolations: Violation[] =
      (org !== null && !this.deps.organizationExists(org)) || !inScope(scope, org) ? [{ field: 'organizationId', key: 'error.visualization.organizationUnknown' }] : [];
    assertNoViolations([...orgViolations, ...layoutViolations(body.layout, this.deps.devicesWithin(scope), (id) => this.deps.productExists(id))]);
  }

  private of(id: string, body: VisualizationBody, createdTime: number, updatedTime: number): Visualization {
    return {
      id,
      name: body.name.trim(),
      platform: body.platform,
      template: body.template ?? false,
      organizationId: body.organizationId ?? null,
      ...(body.thumbnail ? { thumbnail: body.thumbnail } : {}),
      shared: false,
      layout: body.layout,
      createdTime,
      updatedTime,
    };
  }
}
