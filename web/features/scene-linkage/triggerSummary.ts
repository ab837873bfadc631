/**
 * One line per trigger for the scene list ("temperature > 80 for 30 s", "cron 0 0 8 * * * in
 * Asia/Shanghai", "by hand"). Texts come from the `scene` namespace through `t`, so the same
 * function serves both languages and the tests. Pure.
 */
import type { Trigger, TriggerOperation } from '../../../server/contract/scene-linkage.ts';

/** Translates a key of the `scene` namespace with its parameters. */
export type SceneText = (key: string, params?: Record<string, unknown>) => string;

/** The comparisons written as symbols where mathematics has one; the text ones are words. */
const operationSymbols: Partial<Record<TriggerOperation, string>> = {
  EQUAL: '=',
  NOT_EQUAL: '≠',
  LESS: '<',
  LESS_OR_EQUAL: '≤',
  GREATER: '>',
  GREATER_OR_EQUAL: '≥',
};

export function operationText(operation: TriggerOperation, t: SceneText): string {
  return operationSymbols[operation] ?? t(`operation.${operation}`);
}

function valueText(value: unknown): string {
  if (typeof value === 'string') return `"${value}"`;
  return String(value);
}

/** `names` gives the scene's name for a SCENE_TRIGGER's id (else the id is shown). */
export function triggerSummary(trigger: Trigger, t: SceneText, names: (sceneId: string) => string | undefined = () => undefined): string {
  switch (trigger.type) {
    case 'HAND_ACT':
      return t('summary.hand');
    case 'SCHEDULE_TRIGGER':
      return t('summary.schedule', { cron: trigger.cron, timeZone: trigger.timeZone });
    case 'SCENE_TRIGGER':
      return t('summary.scene', { name: names(trigger.sceneId) ?? trigger.sceneId });
    case 'DEVICE_TRIGGER': {
      const subject = trigger.param ? `${trigger.key}.${trigger.param}` : trigger.key;
      const comparison =
        trigger.operation && trigger.value !== undefined
          ? `${subject} ${operationText(trigger.operation, t)} ${valueText(trigger.value)}`
          : t('summary.event', { key: trigger.key });
      if (trigger.conditionType === 'DURATION' && trigger.duration) {
        return t('summary.duration', { comparison, value: trigger.duration.value, unit: t(`timeUnit.${trigger.duration.unit}`) });
      }
      if (trigger.conditionType === 'REPEATING' && trigger.repeat) return t('summary.repeat', { comparison, count: trigger.repeat });
      return comparison;
    }
  }
}

/** Every trigger's line, joined as the list shows them ("or": any one trigger fires the scene). */
export function scenesTriggerSummary(triggers: readonly Trigger[], t: SceneText, names?: (sceneId: string) => string | undefined): string {
  return triggers.map((trigger) => triggerSummary(trigger, t, names)).join(t('summary.or'));
}
