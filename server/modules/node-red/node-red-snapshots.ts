/**
 * Snapshots of an instance's flows and rollback (server/contract/node-red.ts). A snapshot is the
 * flows file and the credentials file as Node-RED wrote them after a deploy: the credentials stay
 * encrypted with the instance's own secret, which never changes, so a rollback hands them back to
 * Node-RED as they are (its admin API takes `{ flows, credentials: { $: … } }` and decrypts them).
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';
import { join } from 'node:path';
import type { PageQuery } from '../../contract/common.ts';
import { ErrorCode } from '../../contract/errors.ts';
import {
  NODE_RED_SNAPSHOT_RETENTION,
  type NodeRedFlows,
  type NodeRedSnapshot,
  type NodeRedSnapshotDetail,
  type NodeRedSnapshotPage,
} from '../../contract/node-red.ts';
import { AppError } from '../../lib/app-error.ts';
import { notFound } from '../../lib/field-errors.ts';
import { newId } from '../../lib/ids.ts';
import { answersHealthy, deployedFlows, deployFull, type Upstream } from './node-red-admin.ts';
import type { NodeRedRepository } from './node-red-repository.ts';
import type { NodeRedService } from './node-red-service.ts';

export interface SnapshotDeps {
  repo: NodeRedRepository;
  instances: NodeRedService;
  retention?: number;
  /** Time an instance has to answer healthy after a rollback (config nodeRedRollbackHealthMs). */
  healthMs: number;
}

const HEALTH_PROBE_EVERY_MS = 1_000;
/** How long a rolled-back runtime must keep answering to count as healthy (at most half the window). */
const HEALTH_SETTLE_MAX_MS = 10_000;

function readOptional(file: string): string | null {
  return existsSync(file) ? readFileSync(file, 'utf8') : null;
}

/** The items of a flows file; a file that is not a JSON array (hand-edited, half-written) has none. */
function flowItems(flows: string): NodeRedFlows['flows'] {
  try {
    const parsed = JSON.parse(flows) as unknown;
    return Array.isArray(parsed) ? parsed.filter((n): n is Record<string, unknown> => !!n && typeof n === 'object') : [];
  } catch {
    return [];
  }
}

/** Node-RED refused a deployment: nothing changed, and its reason is passed on. */
async function refused(answer: Response): Promise<never> {
  const reason = (await answer.text()).slice(0, 200);
  throw new AppError(ErrorCode.GENERAL, 'error.nodeRed.deployFailed', { reason }, { status: 502, expected: true });
}

export class NodeRedSnapshots {
  constructor(private readonly deps: SnapshotDeps) {}

  /** Snapshots what the instance has deployed now (its flows file; an instance never deployed has none). */
  take(instanceId: string, note: string, source: NodeRedSnapshot['source']): NodeRedSnapshot {
    this.deps.instances.get(instanceId);
    const dir = this.deps.instances.userDir(instanceId);
    const flows = readOptional(join(dir, 'flows.json')) ?? '[]';
    const credentials = readOptional(join(dir, 'flows_cred.json'));
    const snapshot: NodeRedSnapshot = { id: newId(), instanceId, note, source, nodeCount: flowItems(flows).length, createdTime: Date.now() };
    this.deps.repo.insertSnapshot({ ...snapshot, flows, credentials });
    this.deps.repo.pruneSnapshots(instanceId, this.deps.retention ?? NODE_RED_SNAPSHOT_RETENTION);
    return snapshot;
  }

  /** What the instance has deployed now, read from its flows file (an instance never deployed has none). */
  current(instanceId: string): NodeRedFlows {
    this.deps.instances.get(instanceId);
    return { flows: flowItems(readOptional(join(this.deps.instances.userDir(instanceId), 'flows.json')) ?? '[]') };
  }

  page(instanceId: string, query: PageQuery): NodeRedSnapshotPage {
    this.deps.instances.get(instanceId);
    return this.deps.repo.snapshotPage(instanceId, query.page, query.pageSize);
  }

  get(instanceId: string, snapshotId: string): NodeRedSnapshotDetail {
    const found = this.deps.repo.snapshot(instanceId, snapshotId);
    if (!found) throw notFound();
    const { flows, credentials: _encrypted, ...meta } = found;
    return { ...meta, flows: flowItems(flows) };
  }

  /**
   * Deploys the snapshot in full after snapshotting what it replaces; if the instance does not
   * answer healthy within the health window, that snapshot is put back (on disk, with a restart,
   * since a runtime stuck in its flows cannot take a deployment) and the call says so.
   */
  async rollback(instanceId: string, snapshotId: string): Promise<{ ok: boolean }> {
    const target = this.deps.repo.snapshot(instanceId, snapshotId);
    if (!target) throw notFound();
    const runtime = this.deps.instances.runtime();
    const upstream = this.runningUpstream(instanceId);
    const replaced = this.take(instanceId, '', 'ROLLBACK');
    const deadline = Date.now() + this.deps.healthMs;
    const body = { flows: JSON.parse(target.flows) as unknown, ...(target.credentials ? { credentials: JSON.parse(target.credentials) as unknown } : {}) };
    const answer = await deployFull(upstream, instanceId, body, deadline - Date.now());
    if (answer && !answer.ok) await refused(answer);
    if (answer && (await this.healthyBy(instanceId, deadline))) return { ok: true };
    await this.restore(instanceId, replaced.id);
    const seconds = Math.round(this.deps.healthMs / 1000);
    runtime.note(instanceId, `rollback to snapshot ${snapshotId} was not healthy within ${seconds} s; restored snapshot ${replaced.id}, taken before it`);
    throw new AppError(ErrorCode.GENERAL, 'error.nodeRed.rollbackReverted', { seconds }, { status: 502, expected: true });
  }

  /**
   * Adds items (a protocol module's flow or subflow, already under ids of their own) to what the
   * instance runs: its flows are snapshotted first (INSTALL), then deployed in full with the items
   * appended, credentials untouched.
   */
  async addFlows(instanceId: string, items: readonly Record<string, unknown>[], note: string): Promise<{ snapshotId: string; added: number }> {
    const upstream = this.runningUpstream(instanceId);
    const current = await deployedFlows(upstream, instanceId);
    if (!current) throw new AppError(ErrorCode.GENERAL, 'error.nodeRed.unreachable', {}, { status: 502, expected: true });
    const before = this.take(instanceId, note, 'INSTALL');
    const answer = await deployFull(upstream, instanceId, { flows: [...current, ...items] }, 30_000);
    if (!answer) throw new AppError(ErrorCode.GENERAL, 'error.nodeRed.unreachable', {}, { status: 502, expected: true });
    if (!answer.ok) await refused(answer);
    return { snapshotId: before.id, added: items.length };
  }

  private runningUpstream(instanceId: string): Upstream {
    this.deps.instances.get(instanceId);
    const upstream = this.deps.instances.runtime().upstream(instanceId);
    if (!upstream) throw new AppError(ErrorCode.GENERAL, 'error.nodeRed.notRunning', {}, { status: 409, expected: true });
    return upstream;
  }

  /**
   * Healthy: the admin API of one and the same process answers every probe for the settle time
   * (a flow that kills or freezes the runtime a few seconds after it starts must not pass because
   * the first probe came early). Probes until then or the deadline.
   */
  private async healthyBy(instanceId: string, deadline: number): Promise<boolean> {
    const runtime = this.deps.instances.runtime();
    const settle = Math.min(HEALTH_SETTLE_MAX_MS, this.deps.healthMs / 2);
    // Since when, and for which process (its own token), every probe answered.
    let since = 0;
    let token: string | null = null;
    do {
      const upstream = runtime.upstream(instanceId);
      const ok = upstream !== null && (await answersHealthy(upstream, instanceId));
      // A restart between two probes starts the streak over.
      if (!ok || !upstream) token = null;
      else if (token !== upstream.token) [since, token] = [Date.now(), upstream.token];
      if (token !== null && Date.now() - since >= settle) return true;
      await delay(HEALTH_PROBE_EVERY_MS);
    } while (Date.now() < deadline);
    return false;
  }

  /** Puts a snapshot's files back in the user dir and restarts the runtime on them. */
  private async restore(instanceId: string, snapshotId: string): Promise<void> {
    const snapshot = this.deps.repo.snapshot(instanceId, snapshotId);
    if (!snapshot) return;
    await this.deps.instances.runtime().stop(instanceId);
    const dir = this.deps.instances.userDir(instanceId);
    writeFileSync(join(dir, 'flows.json'), snapshot.flows, { mode: 0o600 });
    if (snapshot.credentials) writeFileSync(join(dir, 'flows_cred.json'), snapshot.credentials, { mode: 0o600 });
    else rmSync(join(dir, 'flows_cred.json'), { force: true });
    this.deps.instances.start(instanceId);
  }
}
