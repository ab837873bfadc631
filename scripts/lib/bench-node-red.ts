/**
 * A Node-RED instance of the soft gateway (issue 29's budgets: start to editor reachable ≤ 5 s,
 * ≤ 150 MB RSS per idle instance). The runtime process is started the way the supervisor starts it
 * (server/cli/node-red-runtime.ts with RUNTIME_V8_FLAGS and the proxy token in the environment) on
 * a fresh user dir with the edge palette installed as the supervisor installs it (its nodes loaded,
 * none in the flows), three times; "reachable" is the first 200 of the editor's settings with the
 * proxy's header, RSS is /proc VmRSS after 10 s idle. No gateway binary is needed: the gateway only
 * proxies, and its own process is measured by the idle group.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { NODE_RED_TOKEN_HEADER } from '../../server/cli/node-red-runtime.ts';
import { findNodeRedDir, RUNTIME_V8_FLAGS } from '../../server/modules/node-red/node-red-launch.ts';
import { installPalette } from '../../server/modules/node-red/node-red-palette-files.ts';
import { median } from './bench-measure.ts';
import type { RowSpec } from './bench-row.ts';

const RUNS = 3;
const IDLE_MS = 10_000;
const PORT = 47_900;

function status(pid: number, key: string): number {
  return Number(new RegExp(`${key}:\\s+(\\d+)`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
}

async function oneRun(root: string, nodeRedDir: string, port: number): Promise<{ readyMs: number; rssMb: number; anonMb: number }> {
  const userDir = mkdtempSync(join(tmpdir(), 'bench-node-red-'));
  const token = 'bench-token';
  const admin = '/soft-gateway/node-red/bench/editor/';
  const args = [
    ...RUNTIME_V8_FLAGS,
    join(root, 'server/cli/node-red-runtime.ts'),
    ...['--node-red-dir', nodeRedDir, '--user-dir', userDir, '--port', String(port), '--instance-id', 'bench'],
    ...['--admin-root', admin, '--node-root', '/soft-gateway/node-red/bench/http/'],
  ];
  installPalette(userDir);
  // No gateway listens at the palette's URL: an idle instance without "in" nodes never calls it.
  const secrets = { EDGE_NODE_RED_CREDENTIAL_SECRET: 'bench-secret', EDGE_NODE_RED_PROXY_TOKEN: token, EDGE_NODE_RED_PALETTE_SECRET: 'bench-palette', EDGE_NODE_RED_GATEWAY_URL: 'http://127.0.0.1:9' };
  const started = performance.now();
  const child = spawn(process.execPath, args, { env: { ...process.env, ...secrets }, stdio: 'ignore' });
  try {
    let readyMs = 0;
    while (!readyMs) {
      if (performance.now() - started > 120_000 || child.exitCode !== null) throw new Error('bench node-red: the instance never answered');
      const ok = await fetch(`http://127.0.0.1:${port}${admin}settings`, { headers: { [NODE_RED_TOKEN_HEADER]: token } }).then((r) => r.ok, () => false);
      if (ok) readyMs = performance.now() - started;
      else await sleep(50);
    }
    await sleep(IDLE_MS);
    return { readyMs, rssMb: status(child.pid!, 'VmRSS'), anonMb: status(child.pid!, 'RssAnon') };
  } finally {
    child.kill('SIGKILL');
    rmSync(userDir, { recursive: true, force: true });
  }
}

export async function nodeRedRows(root: string): Promise<RowSpec[]> {
  const nodeRedDir = findNodeRedDir(null);
  if (!nodeRedDir) throw new Error('bench node-red: no node-red package in node_modules');
  const runs = [];
  for (let i = 0; i < RUNS; i++) runs.push(await oneRun(root, nodeRedDir, PORT + i));
  const ready = median(runs.map((r) => r.readyMs));
  const rss = median(runs.map((r) => r.rssMb));
  const list = (xs: number[]): string => xs.map((x) => x.toFixed(0)).join(', ');
  const flags = RUNTIME_V8_FLAGS.join(' ');
  return [
    {
      id: 'nodeRedStartMs',
      figure: 'Node-RED instance: start to editor reachable',
      value: Number(ready.toFixed(0)),
      unit: 'ms',
      budget: 5000,
      note: `median of ${RUNS} fresh user dirs with the edge palette installed: spawn of the runtime (${flags}) → first 200 of the editor's settings with the proxy's header; runs ${list(runs.map((r) => r.readyMs))} ms`,
    },
    {
      id: 'nodeRedIdleRssMb',
      figure: 'Node-RED instance: RSS idle',
      value: Number(rss.toFixed(1)),
      unit: 'MB',
      budget: 150,
      note: `median of ${RUNS}: VmRSS ${IDLE_MS / 1000} s after the editor answered, empty flows, the edge palette installed (its nodes loaded, none in the flows: no socket is opened); runs ${list(runs.map((r) => r.rssMb))} MB (anon ${list(runs.map((r) => r.anonMb))} MB); ${flags}`,
    },
  ];
}
