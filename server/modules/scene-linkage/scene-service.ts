/**
 * Scene rules and writes (server/contract/scene-linkage.ts): every save is checked against the
 * products' published thing models, the devices and the other scenes (cycles of SCENE_TRIGGER),
 * and nothing is written when anything is refused. Changes are announced as `scene.changed`, which
 * the rule engine follows.
 */
import type { DeleteResult } from '../../contract/common.ts';
import type { Scene, SceneCreateBody, SceneListQuery, SceneLogEntry, SceneLogPage, ScenePage, SceneUpdateBody } from '../../contract/scene-linkage.ts';
import { sceneViolations, type SceneCheckContext, type SceneModelItem } from '../../contract/rules/scene-linkage.ts';
import type { Db } from '../../db/sqlite.ts';
import { transaction } from '../../db/sqlite.ts';
import { cronNextRuns } from '../../lib/cron-runs.ts';
import { inScope, type DeviceScope } from '../../lib/device-scope.ts';
import type { EventBus } from '../../lib/event-bus.ts';
import { assertNoViolations, notFound, refusedFor } from '../../lib/field-errors.ts';
import { newId } from '../../lib/ids.ts';
import type { PublishedModel } from '../thing-model/published-model.ts';
import { SceneRepository, type RuleCursor, type SceneRulePart } from './scene-repository.ts';

export type { SceneRulePart } from './scene-repository.ts';

/** Enabled scenes read per page at the engine's load: each page's rows are garbage before the next. */
const RULE_PAGE = 100;

export interface SceneServiceDeps {
  db: Db;
  bus: EventBus;
  products: { find(id: string): unknown };
  thingModels: { getPublished(deviceProfileId: string): PublishedModel | null };
  devices: { get(id: string): { deviceProfileId: string; organizationId?: string | null } };
}

/**
 * Every device a scene names (triggers, conditions, clear rules, actions); null when one of its
 * device lists is empty, which stands for every device of a product.
 */
function sceneDeviceIds(scene: Scene): string[] | null {
  const ids: string[] = [];
  const lists = [
    ...scene.triggers.flatMap((t) => (t.type === 'DEVICE_TRIGGER' ? [t.deviceIds] : [])),
    ...scene.conditions.map((c) => c.deviceIds),
    ...scene.clearRules.flatMap((c) => (c ? [c.deviceIds] : [])),
  ];
  for (const list of lists) {
    if (!list.length) return null;
    ids.push(...list);
  }
  for (const action of scene.actions) if (action.type === 'DEVICE_OUT') ids.push(action.deviceId);
  return ids;
}

function itemsOf(model: PublishedModel | null): SceneModelItem[] {
  if (!model) return [];
  return [
    ...model.properties.map((p) => ({ identifier: p.identifier, functionType: 'properties' as const, dataType: p.dataType })),
    ...model.services.map((s) => ({ identifier: s.identifier, functionType: 'services' as const })),
    ...model.events.map((e) => ({ identifier: e.identifier, functionType: 'events' as const, outputData: e.outputData })),
  ];
}

function sceneTriggerIds(scene: Pick<Scene, 'triggers'>): string[] {
  return scene.triggers.flatMap((t) => (t.type === 'SCENE_TRIGGER' ? [t.sceneId] : []));
}

export class SceneService {
  readonly rows: SceneRepository;

  constructor(private readonly deps: SceneServiceDeps) {
    this.rows = new SceneRepository(deps.db);
  }

  /** The lookups of the scene checks, from the database. */
  checkContext(): SceneCheckContext {
    const { products, thingModels, devices } = this.deps;
    return {
      modelOf: (id) => (products.find(id) ? itemsOf(thingModels.getPublished(id)) : undefined),
      productOfDevice: (id) => {
        try {
          return devices.get(id).deviceProfileId;
        } catch {
          return undefined;
        }
      },
      sceneTriggersOf: (id) => {
        const scene = this.rows.findById(id);
        return scene && sceneTriggerIds(scene);
      },
      cronNextRuns: (cron, timeZone, count) => cronNextRuns(cron, timeZone, count),
    };
  }

  /** `scope`: a customer's page holds only the scenes `visibleIn` it. */
  page(query: SceneListQuery, scope: DeviceScope = null): ScenePage {
    if (scope === null) return this.rows.page(query);
    return this.rows.page(query, this.rows.all().filter((s) => this.visibleIn(s, scope)).map((s) => s.id));
  }

  /**
   * Whether a caller of `scope` may see and run the scene: every scene for an unscoped one; for a
   * customer, a scene marked `forCustomers`, run by hand (HAND_ACT), whose every device lies in their scope, so running it
   * cannot touch another organization's devices. A scene naming every device of a product is not
   * theirs.
   */
  visibleIn(scene: Scene, scope: DeviceScope): boolean {
    if (scope === null) return true;
    if (!scene.forCustomers) return false;
    if (!scene.triggers.some((t) => t.type === 'HAND_ACT')) return false;
    const ids = sceneDeviceIds(scene);
    if (ids === null) return false;
    return ids.every((id) => {
      try {
        return inScope(scope, this.deps.devices.get(id).organizationId ?? null);
      } catch {
        return false;
      }
    });
  }

  /** The scene, or 404 when missing or outside `scope` (as if it did not exist). */
  getWithin(id: string, scope: DeviceScope): Scene {
    const scene = this.get(id);
    if (!this.visibleIn(scene, scope)) throw notFound();
    return scene;
  }

  all(): Scene[] {
    return this.rows.all();
  }

  /** Each enabled scene's id, schedule, triggers and clear rules, in creation order (the rule engine's load). */
  forEachEnabledRule(visit: (rule: SceneRulePart) => void): void {
    for (let after: RuleCursor | null = null; ; ) {
      const { rules, last } = this.rows.enabledRules(after, RULE_PAGE);
      for (const rule of rules) visit(rule);
      if (!last || rules.length < RULE_PAGE) return;
      after = last;
    }
  }

  /**
   * Hands back the main connection's page cache (PRAGMA shrink_memory) after the engine's load: the
   * scene table's pages stay cached otherwise, a few hundred KB of malloc for a thousand scenes an
   * idle gateway does not read again until a scene fires or the scene page opens.
   */
  releaseCache(): void {
    this.deps.db.exec('PRAGMA shrink_memory');
  }

  find(id: string): Scene | undefined {
    return this.rows.findById(id);
  }

  get(id: string): Scene {
    const scene = this.rows.findById(id);
    if (!scene) throw notFound();
    return scene;
  }

  create(body: SceneCreateBody): Scene {
    assertNoViolations(sceneViolations(body, this.checkContext()));
    const now = Date.now();
    const scene = this.sceneOf(newId(), body, now, now);
    this.rows.save(scene);
    this.deps.bus.emit('scene.changed', { id: scene.id, scene });
    return scene;
  }

  update(body: SceneUpdateBody): Scene {
    const { id, ...fields } = body;
    const existing = this.get(id);
    assertNoViolations(sceneViolations(fields, this.checkContext(), id));
    const scene = this.sceneOf(id, fields, existing.createdTime, Date.now());
    this.rows.save(scene);
    this.deps.bus.emit('scene.changed', { id, scene });
    return scene;
  }

  setEnabled(id: string, enabled: boolean): Scene {
    this.get(id);
    this.rows.setEnabled(id, enabled, Date.now());
    const scene = this.get(id);
    this.deps.bus.emit('scene.changed', { id, scene });
    return scene;
  }

  /** Deletes scenes; refused when a scene outside `ids` triggers on one of them. */
  delete(ids: readonly string[]): DeleteResult {
    const going = new Set(ids);
    const users = this.rows.all().filter((s) => !going.has(s.id) && sceneTriggerIds(s).some((id) => going.has(id)));
    if (users.length) throw refusedFor('error.scene.inUse', users.map((s) => s.name));
    const deleted = transaction(this.deps.db, () => this.rows.delete(ids));
    for (const id of ids) this.deps.bus.emit('scene.changed', { id, scene: null });
    return { deleted };
  }

  log(entry: SceneLogEntry): void {
    this.rows.insertLog(entry);
  }

  logPage(id: string, page: number, pageSize: number): SceneLogPage {
    this.get(id);
    return this.rows.logPage(id, page, pageSize);
  }

  private sceneOf(id: string, body: SceneCreateBody, createdTime: number, updatedTime: number): Scene {
    return {
      id,
      name: body.name.trim(),
      description: body.description ?? null,
      enabled: body.enabled,
      forCustomers: body.forCustomers ?? false,
      schedule: body.schedule ?? { scheduleType: 'ANY_TIME' },
      triggers: body.triggers,
      conditions: body.conditions,
      actions: body.actions,
      clearRules: body.clearRules,
      createdTime,
      updatedTime,
    };
  }
}
