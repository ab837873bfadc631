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
import type { EventBus } from '../../lib/event-bus.ts';
import { assertNoViolations, notFound, refusedFor } from '../../lib/field-errors.ts';
import { newId } from '../../lib/ids.ts';
import type { PublishedModel } from '../thing-model/published-model.ts';
import { SceneRepository } from './scene-repository.ts';

export interface SceneServiceDeps {
  db: Db;
  bus: EventBus;
  products: { find(id: string): unknown };
  thingModels: { getPublished(deviceProfileId: string): PublishedModel | null };
  devices: { get(id: string): { deviceProfileId: string } };
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

  page(query: SceneListQuery): ScenePage {
    return this.rows.page(query);
  }

  all(): Scene[] {
    return this.rows.all();
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
