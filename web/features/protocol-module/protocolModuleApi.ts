/** Protocol module calls over the contract (server/contract/protocol-module.ts). */
import { protocolModuleRoutes, type ProtocolModule, type ProtocolModuleFile, type ProtocolModuleInstall } from '../../../server/contract/protocol-module.ts';
import type { DeleteResult } from '../../../server/contract/common.ts';
import { api } from '../../lib/api-client.ts';

export function uploadModule(body: ProtocolModuleFile): Promise<ProtocolModule> {
  return api(protocolModuleRoutes.upload, { body, timeoutMs: 60_000 });
}

export function deleteModules(ids: string[]): Promise<DeleteResult> {
  return api(protocolModuleRoutes.remove, { body: { ids } });
}

export function installModule(id: string, instanceId: string): Promise<ProtocolModuleInstall> {
  return api(protocolModuleRoutes.install, { params: { id }, body: { instanceId }, timeoutMs: 90_000 });
}

/** Saves the module file as uploaded, named after the module. */
export async function downloadModule(m: ProtocolModule): Promise<void> {
  const file = await api(protocolModuleRoutes.download, { params: { id: m.id } });
  const url = URL.createObjectURL(new Blob([JSON.stringify(file, null, 2)], { type: 'application/json' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = `${m.name}.json`;
  a.click();
  URL.revokeObjectURL(url);
}
