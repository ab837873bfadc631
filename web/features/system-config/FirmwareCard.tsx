/**
 * System configuration → firmware: upload a signed `.fw` with a progress bar, the packages on the
 * gateway, apply one (optionally allowing a downgrade), and what became of the last update once
 * the gateway answers again (docs/FIRMWARE.md). Mounted by SystemConfigurationPage.
 */
import { useCallback, useEffect, useRef, useState, type JSX } from 'react';
import Alert from '@arco-design/web-react/es/Alert';
import Card from '@arco-design/web-react/es/Card';
import Checkbox from '@arco-design/web-react/es/Checkbox';
import Message from '@arco-design/web-react/es/Message';
import Table from '@arco-design/web-react/es/Table';
import { useTranslation } from 'react-i18next';
import { FIRMWARE_MAX_BYTES, type FirmwareList, type FirmwarePackage } from '../../../server/contract/firmware.ts';
import { ConfirmButton } from '../../components/ConfirmButton.tsx';
import { FileUpload } from '../../components/FileUpload.tsx';
import { formatBytes } from '../../components/file-check.ts';
import { LabelledProgress } from '../../components/LabelledProgress.tsx';
import { formatDateTime } from '../../lib/date-format.ts';
import { errorMessage } from '../../lib/error-text.ts';
import { applyFirmware, loadFirmware, uploadFirmware } from './firmwareApi.ts';

/** How often a restarting gateway is asked whether it answers again. */
const RESTART_POLL_MS = 3000;

function Outcome({ list }: { list: FirmwareList }): JSX.Element | null {
  const { t } = useTranslation('firmware');
  const last = list.lastOutcome;
  if (!last) return null;
  if (last.result === 'installed') return <Alert type="success" data-testid="firmware-installed" content={t('installed', { version: last.version, at: formatDateTime(last.at) })} />;
  const reason = last.reason === 'notReady' || last.reason === 'unhealthy' ? last.reason : 'crashed';
  return <Alert type="warning" data-testid="firmware-rolled-back" content={t('rolledBack', { version: last.version, at: formatDateTime(last.at), reason: t(`reason.${reason}`) })} />;
}

export function FirmwareCard(): JSX.Element {
  const { t } = useTranslation('firmware');
  const [list, setList] = useState<FirmwareList | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [allowDowngrade, setAllowDowngrade] = useState(false);
  const [restarting, setRestarting] = useState(false);
  const poll = useRef<ReturnType<typeof setInterval> | null>(null);

  const reload = useCallback(() => loadFirmware().then(setList, () => {}), []);
  useEffect(() => {
    void reload();
    return () => {
      if (poll.current) clearInterval(poll.current);
    };
  }, [reload]);

  const upload = async (file: File): Promise<void> => {
    setProgress(0);
    try {
      const result = await uploadFirmware(file, setProgress);
      Message.success(t('uploaded', { version: result.version }));
      await reload();
    } catch (err) {
      Message.error(err instanceof Error ? err.message : errorMessage(err));
    } finally {
      setProgress(null);
    }
  };

  // The gateway restarts into the package: ask until it answers with no trial under way.
  const apply = async (pkg: FirmwarePackage): Promise<void> => {
    await applyFirmware(pkg.id, allowDowngrade);
    setRestarting(true);
    poll.current = setInterval(() => {
      loadFirmware(true).then((next) => {
        if (next.phase !== 'good') return;
        if (poll.current) clearInterval(poll.current);
        setRestarting(false);
        setList(next);
      }, () => {});
    }, RESTART_POLL_MS);
  };

  const columns = [
    { title: t('column.version'), dataIndex: 'version' },
    { title: t('column.arch'), dataIndex: 'arch' },
    { title: t('column.size'), dataIndex: 'size', render: (size: number) => formatBytes(size) },
    { title: t('column.uploadedAt'), dataIndex: 'uploadedAt', render: (at: number) => formatDateTime(at) },
    { title: t('column.status'), dataIndex: 'status', render: (status: FirmwarePackage['status']) => t(`status.${status}`) },
    {
      title: t('column.actions'),
      render: (_: unknown, pkg: FirmwarePackage) => (
        <ConfirmButton testId={`firmware-apply-${pkg.id}`} title={t('applyConfirm', { version: pkg.version })} onConfirm={() => apply(pkg)} okText={t('apply')} disabled={restarting || list?.phase === 'trial' || pkg.status === 'installed'} type="text" size="small">
          {t('apply')}
        </ConfirmButton>
      ),
    },
  ];

  return (
    <Card title={t('title')} data-testid="firmware-card">
      {list && <p>{t('running', { version: list.runningVersion })}</p>}
      {restarting ? <Alert type="info" data-testid="firmware-restarting" content={t('restarting')} /> : list && <Outcome list={list} />}
      <div style={{ margin: '12px 0' }}>
        <FileUpload accept={['fw']} maxBytes={FIRMWARE_MAX_BYTES} onFile={upload} testId="firmware-file" hint={t('hint')} disabled={restarting}>
          {t('upload')}
        </FileUpload>
        {progress !== null && (
          <div style={{ marginTop: 8 }}>
            <span id="firmware-progress-label">{t('uploading')}</span>
            <LabelledProgress labelledBy="firmware-progress-label" percent={progress} />
          </div>
        )}
      </div>
      <Checkbox checked={allowDowngrade} onChange={setAllowDowngrade} data-testid="firmware-allow-downgrade">
        {t('allowDowngrade')}
      </Checkbox>
      <Table rowKey="id" columns={columns} data={list?.packages ?? []} pagination={false} style={{ marginTop: 12 }} noDataElement={t('empty')} />
    </Card>
  );
}
