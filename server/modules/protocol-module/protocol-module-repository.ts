/** SQL of protocol modules: protocol_module (migrations/0071-protocol-module.sql). */
import type { Db } from '../../db/sqlite.ts';
import { pageWindow } from '../../db/list-query.ts';
import type { ProtocolModule } from '../../contract/protocol-module.ts';

interface Raw {
  id: string;
  name: string;
  type: string;
  description: string;
  corporate_name: string;
  certificate: string;
  kind: ProtocolModule['kind'];
  node_count: number;
  size_bytes: number;
  created_time: number;
}

const COLUMNS = 'id, name, type, description, corporate_name, certificate, kind, node_count, size_bytes, created_time';

const toModule = (r: Raw): ProtocolModule => ({
  id: r.id,
  name: r.name,
  type: r.type,
  description: r.description,
  corporateName: r.corporate_name,
  certificate: r.certificate,
  kind: r.kind,
  nodeCount: r.node_count,
  sizeBytes: r.size_bytes,
  createdTime: r.created_time,
});

export class ProtocolModuleRepository {
  constructor(private readonly db: Db) {}

  page(page: number, pageSize: number): { items: ProtocolModule[]; total: number } {
    const { limit, offset } = pageWindow(page, pageSize);
    const rows = this.db.prepare(`SELECT ${COLUMNS} FROM protocol_module ORDER BY created_time DESC, rowid DESC LIMIT ? OFFSET ?`).all(limit, offset) as unknown as Raw[];
    const { n } = this.db.prepare('SELECT COUNT(*) AS n FROM protocol_module').get() as { n: number };
    return { items: rows.map(toModule), total: n };
  }

  get(id: string): ProtocolModule | null {
    const row = this.db.prepare(`SELECT ${COLUMNS} FROM protocol_module WHERE id = ?`).get(id) as Raw | undefined;
    return row ? toModule(row) : null;
  }

  /** The module's items as uploaded (JSON text). */
  flow(id: string): string | null {
    const row = this.db.prepare('SELECT flow FROM protocol_module WHERE id = ?').get(id) as { flow: string } | undefined;
    return row?.flow ?? null;
  }

  insert(m: ProtocolModule, flow: string): void {
    this.db
      .prepare(`INSERT INTO protocol_module (${COLUMNS}, flow) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
      .run(m.id, m.name, m.type, m.description, m.corporateName, m.certificate, m.kind, m.nodeCount, m.sizeBytes, m.createdTime, flow);
  }

  delete(id: string): boolean {
    return this.db.prepare('DELETE FROM protocol_module WHERE id = ?').run(id).changes > 0;
  }
}
