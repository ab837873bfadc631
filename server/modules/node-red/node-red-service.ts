/** The rules of Node-RED instances: creation limit, naming, ports, start/stop, editor tickets (server/contract/node-red.ts). */
import { rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import type {
  NodeRedCreateBody,
  NodeRedInstance,
  NodeRedLog,
  NodeRedPage,
  NodeRedService as NodeRedServiceState,
  NodeRedTicket,
  NodeRedUpdateBody,
} from '../../contract/node-red.ts';
import { nodeRedEditorPath } from '../../contract/node-red.ts';
import type { PageQuery } from '../../contract/common.ts';
import { ErrorCode } from '../../contract/errors.ts';
import { AppError } from '../../lib/app-error.ts';
import { assertNoViolations, notFound } from '../../lib/field-errors.ts';
import { newId } from '../../lib/ids.ts';
import type { PortRangeService } from '../port-range/port-range-service.ts';
import type { InstanceRow, NodeRedRepository } from './node-red-repository.ts';
import type { NodeRedSecrets } from './node-red-secrets.ts';
import type { NodeRedSupervisor } from './node-red-supervisor.ts';
import type { NodeRedTickets } from './node-red-tickets.ts';

/** How many of the last log lines a crashed instance shows with its status. */
const CRASH_LOG_LINES = 10;

export interface NodeRedServiceDeps {
  repo: NodeRedRepository;
  /** Null when no node-red package is installed. */
  supervisor: NodeRedSupervisor | null;
  secrets: NodeRedSecrets;
  tickets: NodeRedTickets;
  portRange: PortRangeService;
  dataDir: string;
  max: number;
}

/** Whether nothing listens on 127.0.0.1:port (an instance binds only there). */
function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

export class NodeRedService {
  constructor(private readonly deps: NodeRedServiceDeps) {}

  get installed(): boolean {
    return this.deps.supervisor !== null;
  }

  userDir(id: string): string {
    return join(this.deps.dataDir, 'node-red', id);
  }

  /** The supervisor, or the spec's "the Node-RED service is not started" (503). */
  runtime(): NodeRedSupervisor {
    if (!this.deps.supervisor) throw new AppError(ErrorCode.GENERAL, 'error.nodeRed.notInstalled', {}, { status: 503, expected: true });
    return this.deps.supervisor;
  }

  private row(id: string): InstanceRow {
    const row = this.deps.repo.get(id);
    if (!row) throw notFound();
    return row;
  }

  private view(row: InstanceRow): NodeRedInstance {
    const sup = this.deps.supervisor;
    const status = sup?.status(row.id) ?? 'STOPPED';
    return {
      id: row.id,
      name: row.name,
      port: row.port,
      description: row.description,
      status,
      exposeHttp: row.exposeHttp,
      ...sup?.usage(row.id),
      ...(status === 'CRASHED' ? { crashLog: sup?.logLines(row.id).slice(-CRASH_LOG_LINES) ?? [] } : {}),
      createdTime: row.createdTime,
    };
  }

  service(): NodeRedServiceState {
    return { installed: this.installed, max: this.deps.max };
  }

  page(query: PageQuery): NodeRedPage {
    const { items, total } = this.deps.repo.page(query.page, query.pageSize);
    return { items: items.map((r) => this.view(r)), total };
  }

  get(id: string): NodeRedInstance {
    return this.view(this.row(id));
  }

  private async choosePort(wanted: number | null | undefined, exceptId: string | null): Promise<number> {
    const range = this.deps.portRange.get();
    const taken = this.deps.repo.portsInUse(exceptId);
    if (wanted !== null && wanted !== undefined) {
      const ok = this.deps.portRange.contains(wanted) && !taken.has(wanted) && (await portFree(wanted));
      assertNoViolations(ok ? [] : [{ field: 'port', key: 'error.nodeRed.portUnavailable', params: { ...range } }]);
      return wanted;
    }
    for (let port = range.start; port <= range.end; port++) {
      if (!taken.has(port) && (await portFree(port))) return port;
    }
    throw new AppError(ErrorCode.BAD_REQUEST_PARAMS, 'error.nodeRed.noFreePort', { ...range }, { status: 400 });
  }

  private assertNameFree(name: string, exceptId: string | null): void {
    assertNoViolations(this.deps.repo.nameTaken(name, exceptId) ? [{ field: 'name', key: 'error.nodeRed.nameTaken' }] : []);
  }

  async create(body: NodeRedCreateBody): Promise<NodeRedInstance> {
    this.runtime();
    if (this.deps.repo.count() >= this.deps.max) {
      throw new AppError(ErrorCode.LIMIT_EXCEEDED, 'error.nodeRed.limitReached', { max: this.deps.max });
    }
    this.assertNameFree(body.name, null);
    const port = await this.choosePort(body.port, null);
    const row: InstanceRow = { id: newId(), name: body.name, port, description: body.description ?? '', wantedRunning: true, exposeHttp: false, createdTime: Date.now() };
    this.deps.repo.insert(row);
    this.launch(row);
    return this.view(row);
  }

  async update(body: NodeRedUpdateBody): Promise<NodeRedInstance> {
    const row = this.row(body.id);
    this.assertNameFree(body.name, row.id);
    const port = body.port === undefined || body.port === null || body.port === row.port ? row.port : await this.choosePort(body.port, row.id);
    this.deps.repo.update({ id: row.id, name: body.name, port, description: body.description ?? '', exposeHttp: body.exposeHttp ?? row.exposeHttp });
    return this.get(row.id);
  }

  async remove(ids: readonly string[]): Promise<{ deleted: number }> {
    let deleted = 0;
    for (const id of ids) {
      if (!this.deps.repo.get(id)) continue;
      await this.deps.supervisor?.forget(id);
      this.deps.tickets.revoke(id);
      this.deps.repo.delete(id);
      this.deps.secrets.forget(id);
      rmSync(this.userDir(id), { recursive: true, force: true });
      deleted += 1;
    }
    return { deleted };
  }

  private launch(row: InstanceRow): void {
    const { secrets } = this.deps;
    this.runtime().start({ id: row.id, port: row.port, userDir: this.userDir(row.id), credentialSecret: secrets.credentialSecret(row.id), paletteSecret: secrets.paletteSecret(row.id) });
  }

  start(id: string): NodeRedInstance {
    const row = this.row(id);
    this.runtime();
    this.deps.repo.setWantedRunning(id, true);
    this.launch(row);
    return this.view(row);
  }

  async stop(id: string): Promise<NodeRedInstance> {
    const row = this.row(id);
    this.deps.repo.setWantedRunning(id, false);
    await this.deps.supervisor?.stop(id);
    return this.view(row);
  }

  async restart(id: string): Promise<NodeRedInstance> {
    await this.stop(id);
    return this.start(id);
  }

  log(id: string): NodeRedLog {
    this.row(id);
    return { lines: this.deps.supervisor?.logLines(id) ?? [] };
  }

  /**
   * The port an HTTP-in request is passed to: 404 (as for no instance at all) unless the instance
   * exposes its HTTP-in nodes, 503 while it does not run.
   */
  httpInPort(id: string): number {
    const row = this.deps.repo.get(id);
    if (!row?.exposeHttp) throw notFound();
    const upstream = this.runtime().upstream(id);
    if (!upstream) throw new AppError(ErrorCode.GENERAL, 'error.nodeRed.notRunning', {}, { status: 503, expected: true });
    return upstream.port;
  }

  ticket(id: string): NodeRedTicket {
    this.row(id);
    this.runtime();
    const ticket = this.deps.tickets.issue(id);
    return { ticket, editorUrl: `${nodeRedEditorPath(id)}?ticket=${ticket}` };
  }

  /** Starts the instances that were running when the gateway stopped. */
  startWanted(): void {
    if (!this.deps.supervisor) return;
    for (const row of this.deps.repo.all()) if (row.wantedRunning) this.launch(row);
  }
}
