/**
 * Cold start and idle RSS with 1,000 scenes stored (group `rules`): a provisioned gateway with the
 * rules bench's product, devices and 1,000 enabled scenes (scripts/lib/bench-rules.ts), restarted
 * on the same data dir. Each start is timed from spawn to the first `GET /api/health` 200 (the
 * engine has loaded and indexed every scene by then: it starts with its module, before the server
 * listens); RSS is read after every start has idled 2 s, and the median start counts. The same
 * gateway without scenes,
 * restarted in turn with it, is the baseline, so the note says what the scenes cost.
 */
import { join } from 'node:path';
import { sceneLinkageRoutes } from '../../server/contract/scene-linkage.ts';
import { startBinary } from '../../tests/helpers/binary.ts';
import { startAfterReboot } from './bench-start.ts';
import type { RowSpec } from './bench-row.ts';
import { BENCH_ADMIN, benchLicenceKeys, provision } from './bench-gateway.ts';
import { count, mb, MB, median, medianRss, rssOf, rssRange, sleep, type Rss } from './bench-measure.ts';
import { benchScenes, IDLE_DEVICES, SCENES } from './bench-rules.ts';
import { ConsoleHttp } from './console-http.ts';
import { ensureDevices, ensureSimulatorProduct } from './simulator.ts';

const RESTARTS = 5;
const IDLE_MS = 2000;

interface Restarts {
  startupMs: number[];
  idle: Rss[];
}

/** A provisioned data dir with the rules bench's product and idle devices, and `scenes` if asked. */
async function prepare(binary: string, dataDir: string, args: string[], privateKeyPem: string, scenes: boolean): Promise<void> {
  const gw = await startAfterReboot({ binary, dataDir, args });
  try {
    await provision(gw, privateKeyPem);
    const http = await ConsoleHttp.signIn(gw.url, BENCH_ADMIN.username, BENCH_ADMIN.password);
    const productId = (await ensureSimulatorProduct(http, 'Bench-rules')).id;
    const idle = (await ensureDevices(http, productId, IDLE_DEVICES)).map((d) => d.id);
    if (scenes) for (const body of benchScenes(productId, idle)) await http.call(sceneLinkageRoutes.create, { body });
  } finally {
    await gw.kill();
  }
}

/** One start on `dataDir`: its start-up time and its RSS after idling. */
async function restart(binary: string, dataDir: string, args: string[]): Promise<{ startupMs: number; rss: Rss }> {
  const gw = await startBinary({ binary, dataDir, args });
  try {
    await sleep(IDLE_MS);
    return { startupMs: gw.startupMs, rss: rssOf(gw.pid) };
  } finally {
    await gw.kill();
  }
}

export async function storedSceneRows(binary: string): Promise<RowSpec[]> {
  const keys = benchLicenceKeys();
  try {
    const args = ['--license-public-key', keys.publicKeyFile];
    const dirs = { without: join(keys.dir, 'without'), withScenes: join(keys.dir, 'with-scenes') };
    await prepare(binary, dirs.without, args, keys.privateKeyPem, false);
    await prepare(binary, dirs.withScenes, args, keys.privateKeyPem, true);
    // Restarts alternate between the two dirs, so a busy moment of the machine is not laid on one side.
    const runs: Record<keyof typeof dirs, Restarts> = {
      without: { startupMs: [], idle: [] },
      withScenes: { startupMs: [], idle: [] },
    };
    for (let i = 0; i < RESTARTS; i++) {
      for (const side of ['without', 'withScenes'] as const) {
        const run = await restart(binary, dirs[side], args);
        runs[side].startupMs.push(run.startupMs);
        runs[side].idle.push(run.rss);
      }
    }
    const { without, withScenes } = runs;
    const idle = { without: medianRss(without.idle), withScenes: medianRss(withScenes.idle) };

    const startNote = (r: Restarts): string => `median ${median(r.startupMs).toFixed(0)} ms (min ${Math.min(...r.startupMs).toFixed(0)}, max ${Math.max(...r.startupMs).toFixed(0)})`;
    return [
      {
        id: 'rulesColdStartScenesMs',
        figure: `cold start with ${count(SCENES)} scenes stored, to first GET /api/health 200 (x64)`,
        value: median(withScenes.startupMs),
        unit: 'ms',
        budget: 250,
        note: `${RESTARTS} restarts of a provisioned gateway with ${count(SCENES)} enabled scenes (the rules bench's), ${startNote(withScenes)}; alternating with ${RESTARTS} of one without scenes: ${startNote(without)}`,
        detail: { withScenes: median(withScenes.startupMs), without: median(without.startupMs) },
      },
      {
        id: 'rulesIdleRssScenesMb',
        figure: `RSS after start, idle 2 s, with ${count(SCENES)} scenes stored`,
        value: idle.withScenes.rss / MB,
        unit: 'MB',
        budget: 110,
        note: `median of the ${RESTARTS} starts above (${rssRange(withScenes.idle)}): anon ${mb(idle.withScenes.anon)} MB + file-backed ${mb(idle.withScenes.file)} MB; without scenes: median ${mb(idle.without.rss)} MB (${rssRange(without.idle)}; anon ${mb(idle.without.anon)}), so the scenes add ${mb(idle.withScenes.rss - idle.without.rss)} MB`,
        detail: { withScenes: idle.withScenes.rss, without: idle.without.rss },
      },
    ];
  } finally {
    keys.remove();
  }
}
