/**
 * Soft gateway → protocol modules: vendors' Node-RED flow or subflow templates uploaded as one JSON
 * file (≤ 5 MB), listed with their vendor and certificate, downloaded, deleted, and installed into a
 * running Node-RED instance (snapshotted first, so the install can be rolled back).
 */
import { useMemo, useState, type JSX } from 'react';
import Alert from '@arco-design/web-react/es/Alert';
import Button from '@arco-design/web-react/es/Button';
import Card from '@arco-design/web-react/es/Card';
import Message from '@arco-design/web-react/es/Message';
import type { ColumnProps } from '@arco-design/web-react/es/Table';
import { useTranslation } from 'react-i18next';
import { PROTOCOL_MODULE_MAX_BYTES, protocolModuleRoutes, type ProtocolModule, type ProtocolModuleFile } from '../../../server/contract/protocol-module.ts';
import { ConfirmButton } from '../../components/ConfirmButton.tsx';
import { FileUpload } from '../../components/FileUpload.tsx';
import { ResourceTable } from '../../components/ResourceTable.tsx';
import { formatBytes } from '../../components/file-check.ts';
import { formatDateTime } from '../../lib/date-format.ts';
import { useList } from '../../lib/use-list.ts';
import { InstallModuleModal } from './InstallModuleModal.tsx';
import { deleteModules, downloadModule, uploadModule } from './protocolModuleApi.ts';

export function ProtocolModuleListPage(): JSX.Element {
  const { t } = useTranslation(['nodeRed', 'table']);
  const list = useList(protocolModuleRoutes.list);
  const [installing, setInstalling] = useState<ProtocolModule | null>(null);

  const upload = async (file: File): Promise<void> => {
    let parsed: ProtocolModuleFile;
    try {
      parsed = JSON.parse(await file.text()) as ProtocolModuleFile;
    } catch {
      Message.error(t('protocolModule.malformed'));
      return;
    }
    await uploadModule(parsed);
    Message.success(t('protocolModule.uploaded'));
    await list.refresh();
  };

  const columns = useMemo<ColumnProps<ProtocolModule>[]>(
    () => [
      { title: t('protocolModule.name'), dataIndex: 'name', render: (v: string, row) => <strong title={row.description || undefined}>{v}</strong> },
      { title: t('protocolModule.type'), dataIndex: 'type', width: 160, ellipsis: true },
      { title: t('protocolModule.kind'), dataIndex: 'kind', width: 100, render: (v: ProtocolModule['kind']) => t(`protocolModule.kinds.${v}`) },
      { title: t('protocolModule.corporateName'), dataIndex: 'corporateName', width: 180, ellipsis: true },
      { title: t('protocolModule.certificate'), dataIndex: 'certificate', width: 110, render: (v: string) => (v ? t('protocolModule.hasCertificate') : '—') },
      { title: t('nodeCount'), dataIndex: 'nodeCount', width: 80, align: 'right' },
      { title: t('protocolModule.size'), dataIndex: 'sizeBytes', width: 100, align: 'right', render: (v: number) => formatBytes(v) },
      { title: t('createdTime'), dataIndex: 'createdTime', width: 180, render: (v: number) => formatDateTime(v) },
      {
        title: t('table:actions'),
        key: 'actions',
        width: 250,
        fixed: 'right',
        render: (_: unknown, row) => (
          <span style={{ display: 'inline-flex', gap: 4 }}>
            <Button type="text" size="small" onClick={() => setInstalling(row)} data-testid={`protocol-module-install-${row.id}`}>
              {t('protocolModule.install')}
            </Button>
            <Button type="text" size="small" onClick={() => void downloadModule(row).catch(() => undefined)} data-testid={`protocol-module-download-${row.id}`}>
              {t('protocolModule.download')}
            </Button>
            <ConfirmButton
              title={t('protocolModule.deleteConfirm', { name: row.name })}
              onConfirm={async () => {
                await deleteModules([row.id]);
                await list.refresh();
              }}
              testId={`protocol-module-delete-${row.id}`}
            >
              {t('table:delete')}
            </ConfirmButton>
          </span>
        ),
      },
    ],
    // oxlint-disable-next-line react-hooks/exhaustive-deps -- list.refresh follows the list's query.
    [t, list.refresh],
  );

  return (
    <Card title={t('protocolModule.title')} bordered={false} data-testid="protocol-module-page">
      <Alert type="info" content={t('protocolModule.intro')} style={{ marginBottom: 16 }} />
      <ResourceTable<ProtocolModule, typeof list.filters>
        testId="protocol-module"
        list={list}
        rowKey="id"
        columns={columns}
        scrollX={1300}
        emptyText={t('protocolModule.empty')}
        onBulkDelete={(ids) => deleteModules(ids)}
        toolbar={
          <FileUpload accept={['json']} maxBytes={PROTOCOL_MODULE_MAX_BYTES} onFile={(f) => upload(f).catch(() => undefined)} testId="protocol-module-upload">
            {t('protocolModule.upload')}
          </FileUpload>
        }
      />
      <InstallModuleModal module={installing} onClose={() => setInstalling(null)} />
    </Card>
  );
}
