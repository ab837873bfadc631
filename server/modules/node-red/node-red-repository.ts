/** SQL of the soft gateway: node_red_instance and node_red_snapshot (migrations/0070-node-red.sql). */
import type { Db } from '../../db/sqlite.ts';
import { pageWindow } from '../../db/list-query.ts';
import type { NodeRedSnapshot } from '../../contract/node-red.ts';

export interface InstanceRow {
  id: string;
  name: string;
  port: number;
  description: string;
  wantedRunning: boolean;
  /** HTTP-in nodes reachable through the gateway without sign-in. */
  exposeHttp: boolean;
  createdTime: number;
}

export interface SnapshotContent {
  flows: string;
  credentials: string | null;
}

interface RawInstance {
  id: string;
  name: string;
  port: number;
  description: string;
  wanted_running: number;
  expose_http: number;
  created_time: number;
}

interface RawSnapshot {
  id: string;
  instance_id: string;
  note: string;
  source: NodeRedSnapshot['source'];
  node_count: number;
  created_time: number;
}

const toInstance = (r: RawInstance): InstanceRow => ({
  id: r.id,
  name: r.name,
  port: r.port,
  description: r.description,
  wantedRunning: r.wanted_running === 1,
  exposeHttp: r.expose_http === 1,
  createdTime: r.created_time,
});

const toSnapshot = (r: RawSnapshot): NodeRedSnapshot => ({
  id: r.id,
  instanceId: r.instance_id,
  note: r.note,
  source: r.source,
  nodeCount: r.node_count,
  createdTime: r.created_time,
});

export class NodeRedRepository {
  constructor(private readonly db: Db) {}

  all(): InstanceRow[] {
    return (this.db.prepare('SELECT * FROM node_red_instance ORDER BY created_time, id').all() as unknown as RawInstance[]).map(toInstance);
  }

  page(page: number, pageSize: number): { items: InstanceRow[]; total: number } {
    const { limit, offset } = pageWindow(page, pageSize);
    const rows = this.db.prepare('SELECT * FROM node_red_instance ORDER BY created_time DESC, id LIMIT ? OFFSET ?').all(limit, offset) as unknown as RawInstance[];
    const { n } = this.db.prepare('SELECT COUNT(*) AS n FROM node_red_instance').get() as { n: number };
    return { items: rows.map(toInstance), total: n };
  }

  get(id: string): InstanceRow | null {
    const row = this.db.prepare('SELECT * FROM node_red_instance WHERE id = ?').get(id) as RawInstance | undefined;
    return row ? toInstance(row) : null;
  }

  count(): number {
    return (this.db.prepare('SELECT COUNT(*) AS n FROM node_red_instance').get() as { n: number }).n;
  }

  /** Another instance than `exceptId` holding the name or the port. */
  nameTaken(name: string, exceptId: string | null): boolean {
    return this.db.prepare('SELECT 1 FROM node_red_instance WHERE name = ? AND id IS NOT ?').get(name, exceptId) !== undefined;
  }

  portsInUse(exceptId: string | null): Set<number> {
    const rows = this.db.prepare('SELECT port FROM node_red_instance WHERE id IS NOT ?').all(exceptId) as { port: number }[];
    return new Set(rows.map((r) => r.port));
  }

  insert(row: InstanceRow): void {
    this.db
      .prepare('INSERT INTO node_red_instance (id, name, port, description, wanted_running, created_time) VALUES (?, ?, ?, ?, ?, ?)')
      .run(row.id, row.name, row.port, row.description, row.wantedRunning ? 1 : 0, row.createdTime);
  }

  update(row: Pick<InstanceRow, 'id' | 'name' | 'port' | 'description' | 'exposeHttp'>): void {
    this.db
      .prepare('UPDATE node_red_instance SET name = ?, port = ?, description = ?, expose_http = ? WHERE id = ?')
      .run(row.name, row.port, row.description, row.exposeHttp ? 1 : 0, row.id);
  }

  setWantedRunning(id: string, wanted: boolean): void {
    this.db.prepare('UPDATE node_red_instance SET wanted_running = ? WHERE id = ?').run(wanted ? 1 : 0, id);
  }

  delete(id: string): void {
    this.db.prepare('DELETE FROM node_red_snapshot WHERE instance_id = ?').run(id);
    this.db.prepare('DELETE FROM node_red_instance WHERE id = ?').run(id);
  }

  insertSnapshot(s: NodeRedSnapshot & SnapshotContent): void {
    this.db
      .prepare('INSERT INTO node_red_snapshot (id, instance_id, note, source, flows, credentials, node_count, created_time) VALUES (?, ?, ?, ?, ?, ?, ?, ?)')
      .run(s.id, s.instanceId, s.note, s.source, s.flows, s.credentials, s.nodeCount, s.createdTime);
  }

  /** Deletes all but the newest `keep` snapshots of an instance. */
  pruneSnapshots(instanceId: string, keep: number): void {
    this.db
      .prepare(
        `DELETE FROM node_red_snapshot WHERE instance_id = ? AND id NOT IN
           (SELECT id FROM node_red_snapshot WHERE instance_id = ? ORDER BY created_time DESC, rowid DESC LIMIT ?)`,
      )
      .run(instanceId, instanceId, keep);
  }

  snapshotPage(instanceId: string, page: number, pageSize: number): { items: NodeRedSnapshot[]; total: number } {
    const { limit, offset } = pageWindow(page, pageSize);
    const rows = this.db
      .prepare('SELECT id, instance_id, note, source, node_count, created_time FROM node_red_snapshot WHERE instance_id = ? ORDER BY created_time DESC, rowid DESC LIMIT ? OFFSET ?')
      .all(instanceId, limit, offset) as unknown as RawSnapshot[];
    const { n } = this.db.prepare('SELECT COUNT(*) AS n FROM node_red_snapshot WHERE instance_id = ?').get(instanceId) as { n: number };
    return { items: rows.map(toSnapshot), total: n };
  }

  /** A snapshot of that instance (another instance's id finds nothing). */
  snapshot(instanceId: string, snapshotId: string): (NodeRedSnapshot & SnapshotContent) | null {
    const row = this.db.prepare('SELECT * FROM node_red_snapshot WHERE id = ? AND instance_id = ?').get(snapshotId, instanceId) as
      | (RawSnapshot & SnapshotContent)
      | undefined;
    return row ? { ...toSnapshot(row), flows: row.flows, credentials: row.credentials } : null;
  }
}
