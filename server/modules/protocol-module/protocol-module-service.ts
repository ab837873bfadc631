/** The rules of protocol modules: what a module file must hold, and installing one into an instance (server/contract/protocol-module.ts). */
import type { PageQuery } from '../../contract/common.ts';
import type { ProtocolModule, ProtocolModuleFile, ProtocolModuleInstall } from '../../contract/protocol-module.ts';
import { notFound, violationError } from '../../lib/field-errors.ts';
import { newId } from '../../lib/ids.ts';
import type { NodeRedSnapshots } from '../node-red/node-red-snapshots.ts';
import { flowKind, installableItems } from './module-flow.ts';
import type { ProtocolModuleRepository } from './protocol-module-repository.ts';

export interface ProtocolModuleDeps {
  repo: ProtocolModuleRepository;
  /** The node-red module's snapshots service: the one way flows get into an instance. */
  nodeRed: Pick<NodeRedSnapshots, 'addFlows'>;
}

export class ProtocolModuleService {
  constructor(private readonly deps: ProtocolModuleDeps) {}

  page(query: PageQuery): { items: ProtocolModule[]; total: number } {
    return this.deps.repo.page(query.page, query.pageSize);
  }

  get(id: string): ProtocolModule {
    const found = this.deps.repo.get(id);
    if (!found) throw notFound();
    return found;
  }

  upload(file: ProtocolModuleFile): ProtocolModule {
    const kind = flowKind(file.flow);
    if (!kind) throw violationError([{ field: 'flow', key: 'error.protocolModule.notAFlow' }]);
    const flow = JSON.stringify(file.flow);
    const module: ProtocolModule = {
      id: newId(),
      name: file.name,
      type: file.type,
      description: file.description ?? '',
      corporateName: file.corporateName,
      certificate: file.certificate ?? '',
      kind,
      nodeCount: file.flow.length,
      sizeBytes: Buffer.byteLength(JSON.stringify(file)),
      createdTime: Date.now(),
    };
    this.deps.repo.insert(module, flow);
    return module;
  }

  download(id: string): ProtocolModuleFile {
    const m = this.get(id);
    const flow = JSON.parse(this.deps.repo.flow(id) ?? '[]') as ProtocolModuleFile['flow'];
    return { name: m.name, type: m.type, description: m.description, corporateName: m.corporateName, certificate: m.certificate, flow };
  }

  remove(ids: readonly string[]): { deleted: number } {
    return { deleted: ids.filter((id) => this.deps.repo.delete(id)).length };
  }

  async install(id: string, instanceId: string): Promise<ProtocolModuleInstall> {
    const { flow } = this.download(id);
    const m = this.get(id);
    return this.deps.nodeRed.addFlows(instanceId, installableItems(flow, m.name), m.name);
  }
}
