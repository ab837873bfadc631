/**
 * The editor's check before a save: the shared scene rules (server/contract/rules/scene-linkage.ts),
 * the ones the server runs, fed with what the editor has loaded (published models, other scenes'
 * triggers, croner), and each violation moved onto the form field that shows it.
 */
import { Cron } from 'croner';
import type { Scene, SceneCreateBody } from '../../../server/contract/scene-linkage.ts';
import { sceneViolations, type SceneModelItem, type SceneViolation } from '../../../server/contract/rules/scene-linkage.ts';
import type { ThingModelTsl } from '../../../server/contract/thing-model.ts';

/** The published items of a model as the rules read them (no model published: none). */
export function modelItems(model: ThingModelTsl | null): SceneModelItem[] {
  if (!model) return [];
  return [
    ...model.properties.map((p) => ({ identifier: p.identifier, functionType: 'properties' as const, dataType: p.functionJson.dataType })),
    ...model.events.map((e) => ({ identifier: e.identifier, functionType: 'events' as const, outputData: e.functionJson.outputData })),
  ];
}

export function cronNextRunsMs(cron: string, timeZone: string, count: number): number[] | null {
  try {
    const job = new Cron(cron, { timezone: timeZone, paused: true });
    const runs = job.nextRuns(count).map((d) => d.getTime());
    job.stop();
    return runs;
  } catch {
    return null;
  }
}

/**
 * The form path showing a violation: body paths (`triggers.0.value`) in Arco's list notation, a
 * clear rule inside its trigger, a list member's problem on the list's own input.
 */
export function formPathOf(field: string): string {
  let path = field.replace(/^clearRules\.(\d+)/, 'triggers.$1.clear');
  path = path.replace(/\.(deviceIds|weekdays)\.\d+$/, '.$1');
  path = path.replace(/^(schedule\.items\.\d+)\.weekday$/, '$1.enabled');
  path = path.replace(/\.duration$/, '.duration.value');
  return path.replace(/\.(\d+)(?=\.|$)/g, '[$1]');
}

export interface SceneCheckInput {
  body: SceneCreateBody;
  /** The id of the scene being edited (none for a new one). */
  sceneId?: string;
  /** Published model of each product the body names (null: none published). */
  models: ReadonlyMap<string, ThingModelTsl | null>;
  /** The saved scenes (for scene triggers and cycles). */
  scenes: readonly Pick<Scene, 'id' | 'triggers'>[];
}

export function sceneFormViolations({ body, sceneId, models, scenes }: SceneCheckInput): SceneViolation[] {
  const byId = new Map(scenes.map((s) => [s.id, s.triggers.flatMap((t) => (t.type === 'SCENE_TRIGGER' ? [t.sceneId] : []))]));
  return sceneViolations(
    body,
    {
      modelOf: (id) => (models.has(id) ? modelItems(models.get(id) ?? null) : undefined),
      sceneTriggersOf: (id) => byId.get(id),
      cronNextRuns: cronNextRunsMs,
    },
    sceneId,
  );
}

/** Every product a body names (their models must be loaded before the check). */
export function productsOf(body: SceneCreateBody): string[] {
  const ids = new Set<string>();
  for (const t of body.triggers) if (t.type === 'DEVICE_TRIGGER' && t.deviceProfileId) ids.add(t.deviceProfileId);
  for (const c of [...body.conditions, ...body.clearRules]) if (c?.deviceProfileId) ids.add(c.deviceProfileId);
  return [...ids];
}
