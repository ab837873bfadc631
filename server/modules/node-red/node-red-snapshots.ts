/**
 * Snapshots of an instance's flows and rollback (server/contract/node-red.ts). A snapshot is the
 * flows file and the credentials file as Node-RED wrote them after a deploy: the credentials stay
 * encrypted with the instance's own secret, which never changes, so a rollback hands them back to
 * Node-RED as they are (its admin API takes `{ flows, credentials: { $: … } }` and decrypts them).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PageQuery } from '../../contract/common.ts';
import { ErrorCode } from '../../contract/errors.ts';
import {
  NODE_RED_SNAPSHOT_RETENTION,
  nodeRedEditorPath,
  type NodeRedFlows,
  type NodeRedSnapshot,
  type NodeRedSnapshotDetail,
  type NodeRedSnapshotPage,
} from '../../contract/node-red.ts';
import { NODE_RED_TOKEN_HEADER } from '../../cli/node-red-runtime.ts';
import { AppError } from '../../lib/app-error.ts';
import { notFound } from '../../lib/field-errors.ts';
import { newId } from '../../lib/ids.ts';
import type { NodeRedRepository } from './node-red-repository.ts';
import type { NodeRedService } from './node-red-service.ts';

export interface SnapshotDeps {
  repo: NodeRedRepository;
  instances: NodeRedService;
  retention?: number;
}

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

  /** Deploys the snapshot in full after snapshotting what it replaces. */
  async rollback(instanceId: string, snapshotId: string): Promise<{ ok: boolean }> {
    const target = this.deps.repo.snapshot(instanceId, snapshotId);
    if (!target) throw notFound();
    const upstream = this.deps.instances.runtime().upstream(instanceId);
    if (!upstream) throw new AppError(ErrorCode.GENERAL, 'error.nodeRed.notRunning', {}, { status: 409, expected: true });
    this.take(instanceId, '', 'ROLLBACK');
    const body = { flows: JSON.parse(target.flows) as unknown, ...(target.credentials ? { credentials: JSON.parse(target.credentials) as unknown } : {}) };
    let answer: Response;
    try {
      answer = await fetch(`http://127.0.0.1:${upstream.port}${nodeRedEditorPath(instanceId)}flows`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          [NODE_RED_TOKEN_HEADER]: upstream.token,
          'Node-RED-API-Version': 'v2',
          'Node-RED-Deployment-Type': 'full',
        },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(30_000),
      });
    } catch {
      throw new AppError(ErrorCode.GENERAL, 'error.nodeRed.unreachable', {}, { status: 502, expected: true });
    }
    if (!answer.ok) {
      const reason = (await answer.text()).slice(0, 200);
      throw new AppError(ErrorCode.GENERAL, 'error.nodeRed.deployFailed', { reason }, { status: 502, expected: true });
    }
    return { ok: true };
  }
}
