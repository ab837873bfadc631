/** Picks a running Node-RED instance to install a protocol module into (the instance is snapshotted first). */
import { useEffect, useState, type JSX } from 'react';
import Message from '@arco-design/web-react/es/Message';
import Modal from '@arco-design/web-react/es/Modal';
import Select from '@arco-design/web-react/es/Select';
import { useTranslation } from 'react-i18next';
import { nodeRedRoutes, type NodeRedInstance } from '../../../server/contract/node-red.ts';
import type { ProtocolModule } from '../../../server/contract/protocol-module.ts';
import { api } from '../../lib/api-client.ts';
import { installModule } from './protocolModuleApi.ts';

/** Instances are few (the creation limit is at most 32), so one page holds them all. */
const ALL_INSTANCES = 100;

export function InstallModuleModal({ module, onClose }: { module: ProtocolModule | null; onClose: () => void }): JSX.Element {
  const { t } = useTranslation('nodeRed');
  const [instances, setInstances] = useState<NodeRedInstance[]>([]);
  const [instanceId, setInstanceId] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (!module) return;
    setInstanceId(undefined);
    api(nodeRedRoutes.list, { query: { page: 1, pageSize: ALL_INSTANCES } }).then(
      (page) => setInstances(page.items),
      () => undefined,
    );
  }, [module]);
  const install = async (): Promise<void> => {
    if (!module || !instanceId) return;
    setBusy(true);
    try {
      await installModule(module.id, instanceId);
      Message.success(t('protocolModule.installed'));
      onClose();
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      title={t('protocolModule.installTitle', { name: module?.name ?? '' })}
      visible={module !== null}
      onCancel={onClose}
      onOk={() => void install().catch(() => undefined)}
      okButtonProps={{ disabled: !instanceId, loading: busy }}
      unmountOnExit
    >
      <p>{t('protocolModule.installHint')}</p>
      <Select
        value={instanceId}
        onChange={setInstanceId}
        placeholder={t('protocolModule.instancePlaceholder')}
        aria-label={t('protocolModule.instancePlaceholder')}
        options={instances.map((i) => ({ value: i.id, label: i.name, disabled: i.status !== 'RUNNING' }))}
        data-testid="protocol-module-install-instance"
      />
    </Modal>
  );
}
