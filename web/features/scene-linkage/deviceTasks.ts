/**
 * A device's tasks: the scenes that run on a schedule (a SCHEDULE_TRIGGER) and command that device
 * (a DEVICE_OUT action to it), each with its next run. Pure.
 */
import type { Scene, ScheduleTrigger } from '../../../server/contract/scene-linkage.ts';
import { nextRuns } from './nextRuns.ts';

export interface DeviceTask {
  scene: Scene;
  schedules: ScheduleTrigger[];
  /** The soonest next run over the scene's schedule triggers; null when none runs again. */
  nextRun: Date | null;
}

export function deviceTasks(scenes: readonly Scene[], deviceId: string, now: Date = new Date()): DeviceTask[] {
  const out: DeviceTask[] = [];
  for (const scene of scenes) {
    if (!scene.actions.some((a) => a.type === 'DEVICE_OUT' && a.deviceId === deviceId)) continue;
    const schedules = scene.triggers.filter((t): t is ScheduleTrigger => t.type === 'SCHEDULE_TRIGGER');
    if (schedules.length === 0) continue;
    let nextRun: Date | null = null;
    for (const s of schedules) {
      const runs = nextRuns(s.cron, s.timeZone, now, 1);
      const first = runs.ok ? runs.runs[0] : undefined;
      if (first && (!nextRun || first < nextRun)) nextRun = first;
    }
    out.push({ scene, schedules, nextRun });
  }
  return out.sort((a, b) => (a.nextRun?.getTime() ?? Infinity) - (b.nextRun?.getTime() ?? Infinity));
}
