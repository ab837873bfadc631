/**
 * Soft gateway → Node-RED → one instance: its status, port and memory, start/stop/restart, the
 * editor (a new tab with a single-use ticket), the last log lines and the snapshots with rollback.
 * The status is polled while the instance starts or restarts after a crash.
 */
import { useCallback, useEffect, useState, type JSX } from 'react';
import Button from '@arco-design/web-react/es/Button';
import Card from '@arco-design/web-react/es/Card';
import Descriptions from '@arco-design/web-react/es/Descriptions';
import Spin from '@arco-design/web-react/es/Spin';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'wouter';
import { consolePaths } from '../../../server/contract/console-paths.ts';
import type { NodeRedInstance } from '../../../server/contract/node-red.ts';
import { EnumTag } from '../../components/EnumTag.tsx';
import { formatDateTime } from '../../lib/date-format.ts';
import { InstanceActions } from './InstanceActions.tsx';
import { SnapshotCard } from './SnapshotCard.tsx';
import { memoryText, nodeRedStatusColors, STATUS_POLL_MS } from './instanceStatus.ts';
import { getInstance, instanceLog } from './nodeRedApi.ts';

function LogCard({ id }: { id: string }): JSX.Element {
  const { t } = useTranslation('nodeRed');
  const [lines, setLines] = useState<string[]>([]);
  const load = useCallback(() => instanceLog(id).then((l) => setLines(l.lines), () => undefined), [id]);
  useEffect(() => void load(), [load]);
  return (
    <Card
      title={t('log')}
      bordered={false}
      extra={
        <Button size="small" onClick={() => void load()} data-testid="node-red-log-refresh">
          {t('refresh')}
        </Button>
      }
    >
      {/* Focusable so the keyboard can scroll a long log (a scrollable region must be reachable). */}
      <pre className="ec-node-red__log" tabIndex={0} role="region" aria-label={t('log')} data-testid="node-red-log" style={{ maxHeight: 320, overflow: 'auto', margin: 0, whiteSpace: 'pre-wrap' }}>
        {lines.length ? lines.join('\n') : t('logEmpty')}
      </pre>
    </Card>
  );
}

export function NodeRedDetailPage(): JSX.Element {
  const { t } = useTranslation('nodeRed');
  const { id } = useParams<{ id: string }>();
  const [instance, setInstance] = useState<NodeRedInstance | null>(null);
  const load = useCallback(() => getInstance(id).then(setInstance, () => undefined), [id]);
  useEffect(() => void load(), [load]);

  const settling = instance?.status === 'STARTING' || instance?.status === 'CRASHED';
  useEffect(() => {
    if (!settling) return undefined;
    const timer = setInterval(() => void load(), STATUS_POLL_MS);
    return () => clearInterval(timer);
  }, [settling, load]);

  if (!instance) return <Spin style={{ display: 'block', margin: '48px auto' }} />;
  const items = [
    { label: t('statusLabel'), value: <EnumTag ns="nodeRed" group="status" value={instance.status} colors={nodeRedStatusColors} testId="node-red-detail-status" /> },
    { label: t('port'), value: instance.port },
    { label: t('memory'), value: memoryText(instance.rssBytes) },
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
      </Card>
      <SnapshotCard instanceId={instance.id} running={instance.status === 'RUNNING'} />
      <LogCard id={instance.id} />
    </div>
  );
}
