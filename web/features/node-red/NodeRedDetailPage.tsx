/**
 * Soft gateway → Node-RED → one instance: its status, port and memory, start/stop/restart, the
 * editor (a new tab with a single-use ticket), the log followed live and the snapshots with rollback.
 * The status is polled while the instance runs or settles; a crash shows its last log lines.
 */
import { useCallback, useEffect, useState, type JSX } from 'react';
import Alert from '@arco-design/web-react/es/Alert';
import Card from '@arco-design/web-react/es/Card';
import Descriptions from '@arco-design/web-react/es/Descriptions';
import Spin from '@arco-design/web-react/es/Spin';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'wouter';
import { consolePaths } from '../../../server/contract/console-paths.ts';
import type { NodeRedInstance } from '../../../server/contract/node-red.ts';
import { EnumTag } from '../../components/EnumTag.tsx';
import { formatDateTime } from '../../lib/date-format.ts';
import { ExposeHttpSwitch } from './ExposeHttpSwitch.tsx';
import { InstanceActions } from './InstanceActions.tsx';
import { InstanceLogCard } from './InstanceLogCard.tsx';
import { SnapshotCard } from './SnapshotCard.tsx';
import { cpuText, memoryText, nodeRedStatusColors, STATUS_POLL_MS } from './instanceStatus.ts';
import { getInstance } from './nodeRedApi.ts';

export function NodeRedDetailPage(): JSX.Element {
  const { t } = useTranslation('nodeRed');
  const { id } = useParams<{ id: string }>();
  const [instance, setInstance] = useState<NodeRedInstance | null>(null);
  const load = useCallback(() => getInstance(id).then(setInstance, () => undefined), [id]);
  useEffect(() => void load(), [load]);

  // Polled while it settles, and while it runs so memory and CPU (sampled by the gateway) stay current.
  const polled = instance !== null && instance.status !== 'STOPPED';
  useEffect(() => {
    if (!polled) return undefined;
    const timer = setInterval(() => void load(), STATUS_POLL_MS);
    return () => clearInterval(timer);
  }, [polled, load]);

  if (!instance) return <Spin style={{ display: 'block', margin: '48px auto' }} />;
  const items = [
    { label: t('statusLabel'), value: <EnumTag ns="nodeRed" group="status" value={instance.status} colors={nodeRedStatusColors} testId="node-red-detail-status" /> },
    { label: t('port'), value: instance.port },
    { label: t('memory'), value: memoryText(instance.rssBytes) },
    { label: t('cpu'), value: cpuText(instance.cpuPercent) },
    { label: t('exposeHttp'), value: <ExposeHttpSwitch instance={instance} onChanged={setInstance} /> },
    { label: t('createdTime'), value: formatDateTime(instance.createdTime) },
    { label: t('description'), value: instance.description || '—' },
  ];
  return (
    <div style={{ display: 'grid', gap: 16 }} data-testid="node-red-detail-page">
      <Card
        title={instance.name}
        bordered={false}
        extra={
          <span style={{ display: 'inline-flex', gap: 8, alignItems: 'center' }}>
            <InstanceActions instance={instance} onChanged={() => void load()} />
            <Link href={consolePaths.nodeRed}>{t('back')}</Link>
          </span>
        }
      >
        <Descriptions column={{ xs: 1, md: 3 }} data={items} />
        {instance.status === 'CRASHED' && (
          <Alert
            type="error"
            style={{ marginTop: 12 }}
            title={t('logCrashed')}
            content={<pre style={{ margin: 0, whiteSpace: 'pre-wrap' }}>{(instance.crashLog ?? []).join('\n')}</pre>}
            data-testid="node-red-crash-log"
          />
        )}
      </Card>
      <SnapshotCard instanceId={instance.id} running={instance.status === 'RUNNING'} />
      <InstanceLogCard id={instance.id} />
    </div>
  );
}
