/** Next run times of a cron expression with croner (the scene checks of server/contract/rules/scene-linkage.ts take this). */
import { Cron } from 'croner';

/** The next `count` run times (epoch ms) after `from` in `timeZone`; null when croner refuses the expression or the zone. */
export function cronNextRuns(cron: string, timeZone: string, count: number, from: Date = new Date()): number[] | null {
  try {
    const job = new Cron(cron.trim(), { timezone: timeZone, paused: true });
    const runs = job.nextRuns(count, from).map((d) => d.getTime());
    job.stop();
    return runs;
  } catch {
    return null;
  }
}
