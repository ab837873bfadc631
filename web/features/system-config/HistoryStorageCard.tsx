/**
 * System configuration → history storage: the database's size against its cap, free disk against
 * the floor below which telemetry is refused, the time left at the last hour's growth ("—" when
 * not measurable), the global retention, and per product its history and its own retention
 * (empty: the global one). Server rules: server/contract/telemetry-storage.ts.
 */
import { useCallback, useEffect, useState, type JSX } from 'react';
import Alert from '@arco-design/web-react/es/Alert';
import Button from '@arco-design/web-react/es/Button';
import Card from '@arco-design/web-react/es/Card';
import Descriptions from '@arco-design/web-react/es/Descriptions';
import InputNumber from '@arco-design/web-react/es/InputNumber';
import Message from '@arco-design/web-react/es/Message';
import Space from '@arco-design/web-react/es/Space';
import Table from '@arco-design/web-react/es/Table';
import type { ColumnProps } from '@arco-design/web-react/es/Table';
import { useTranslation } from 'react-i18next';
import { useLeaveGuard } from '../../lib/leave-guard.ts';
import type { ProductHistoryUsage, StorageState, WrittenBytes } from '../../../server/contract/telemetry-storage.ts';
import { RETENTION_DAYS_MAX, RETENTION_DAYS_MIN } from '../../../server/contract/telemetry.ts';
import { formatBytes } from '../../components/file-check.ts';
import { loadStorage, saveGlobalRetention, saveProductRetention } from './storageApi.ts';
import { timeLeftOf } from './time-left.ts';
import './system-config.css';

function RetentionInput({
  value,
  placeholder,
  onSave,
  testId,
  label,
}: {
  value: number | null;
  placeholder?: string;
  onSave: (days: number | null) => Promise<void>;
  testId: string;
  /** The input's accessible name (its visible label sits in another cell). */
  label: string;
}): JSX.Element {
  const { t } = useTranslation('systemConfig');
  const [days, setDays] = useState<number | undefined>(value ?? undefined);
  const [saving, setSaving] = useState(false);
  useEffect(() => setDays(value ?? undefined), [value]);
  useLeaveGuard(days !== (value ?? undefined));
  const save = async (next: number | null): Promise<void> => {
    setSaving(true);
    try {
      await onSave(next);
      Message.success(t('storage.saved'));
    } catch {
      // The HTTP client showed why.
    } finally {
      setSaving(false);
    }
  };
  return (
    <Space size="mini">
      <InputNumber
        min={RETENTION_DAYS_MIN}
        max={RETENTION_DAYS_MAX}
        precision={0}
        value={days}
        placeholder={placeholder}
        suffix={t('storage.days')}
        style={{ width: 170 }}
        aria-label={label}
        onChange={(v) => setDays(typeof v === 'number' ? v : undefined)}
        data-testid={`${testId}-input`}
      />
      <Button size="small" type="primary" loading={saving} disabled={days === undefined && placeholder === undefined} onClick={() => void save(days ?? null)} data-testid={`${testId}-save`}>
        {t('storage.save')}
      </Button>
      {placeholder !== undefined && value !== null ? (
        <Button size="small" loading={saving} onClick={() => void save(null)} data-testid={`${testId}-clear`}>
          {t('storage.clear')}
        </Button>
      ) : null}
    </Space>
  );
}

/** The process's bytes written over 24 h (or since it started) and per message. */
function WrittenBytesText({ written }: { written: WrittenBytes }): JSX.Element {
  const { t } = useTranslation('systemConfig');
  if (written.bytes === null) return <span data-testid="storage-written">{t('storage.writtenUnknown')}</span>;
  const size = formatBytes(written.bytes);
  const perMessage = written.bytesPerMessage === null ? t('storage.writtenNoMessages') : formatBytes(Math.round(written.bytesPerMessage));
  const text = written.sinceStart
    ? t('storage.writtenSince', { size, perMessage, time: new Date(written.sinceTs).toLocaleString() })
    : t('storage.writtenValue', { size, perMessage });
  return (
    <span data-testid="storage-written" title={t('storage.writtenHint')}>
      {text}
    </span>
  );
}

export function HistoryStorageCard(): JSX.Element {
  const { t } = useTranslation(['systemConfig', 'telemetry']);
  const [state, setState] = useState<StorageState | null>(null);
  const [loading, setLoading] = useState(true);

  const load = useCallback(async () => {
    setLoading(true);
    try {
      setState(await loadStorage());
    } catch {
      // The HTTP client showed why.
    } finally {
      setLoading(false);
    }
  }, []);

  useEffect(() => {
    void load();
  }, [load]);

  const left = timeLeftOf(state?.timeLeftMs ?? null);
  const columns: ColumnProps<ProductHistoryUsage>[] = [
    { title: t('storage.product'), dataIndex: 'productName' },
    { title: t('storage.rows'), dataIndex: 'rows', render: (v: number) => v.toLocaleString() },
    { title: t('storage.blocks'), dataIndex: 'blocks', render: (v: number, r) => `${v.toLocaleString()} (${r.blockValues.toLocaleString()})` },
    { title: t('storage.estimatedSize'), dataIndex: 'estimatedBytes', render: (v: number) => formatBytes(v) },
    {
      title: t('storage.retention'),
      dataIndex: 'retentionDays',
      width: 330,
      render: (v: number | null, r) => (
        <RetentionInput
          value={v}
          label={`${t('storage.retention')}: ${r.productName}`}
          placeholder={t('storage.retentionGlobal', { days: state?.telemetryRetentionDays ?? '' })}
          onSave={async (days) => {
            await saveProductRetention(r.productId, days);
            await load();
          }}
          testId={`storage-product-${r.productId}`}
        />
      ),
    },
  ];

  return (
    <Card bordered={false} title={t('storage.title')} loading={loading && !state} data-testid="history-storage">
      {state?.telemetryRefused ? (
        <Alert type="error" title={t('storage.refused')} content={t('storage.refusedHint')} style={{ marginBottom: 16 }} data-testid="storage-refused" />
      ) : null}
      {state ? (
        <>
          <Descriptions
            column={2}
            data={[
              { label: t('storage.databaseSize'), value: <span data-testid="storage-database-size">{formatBytes(state.databaseBytes)}</span> },
              { label: t('storage.sizeCap'), value: state.historyMaxBytes === null ? t('storage.sizeCapOff') : formatBytes(state.historyMaxBytes) },
              {
                label: t('storage.freeDisk'),
                value: `${formatBytes(state.freeDiskBytes)} · ${t('storage.freeDiskFloor', { floor: formatBytes(state.minFreeDiskBytes) })}`,
              },
              {
                label: t('storage.timeLeft'),
                value: (
                  <span data-testid="storage-time-left" title={state.growthBytesPerHour === null ? undefined : t('storage.growth', { size: formatBytes(Math.max(0, state.growthBytesPerHour)) })}>
                    {left ? t(`telemetry:period.${left.unit}`, { count: left.count }) : t('storage.timeLeftUnknown')}
                  </span>
                ),
              },
              { label: t('storage.written'), value: <WrittenBytesText written={state.written} /> },
              {
                label: t('storage.globalRetention'),
                value: (
                  <RetentionInput
                    value={state.telemetryRetentionDays}
                    label={t('storage.globalRetention')}
                    onSave={async (days) => {
                      if (days !== null) await saveGlobalRetention(days);
                      await load();
                    }}
                    testId="storage-global"
                  />
                ),
              },
            ]}
          />
          <h4 className="ec-storage__products">{t('storage.products')}</h4>
          <Table rowKey="productId" columns={columns} data={state.products} pagination={false} size="small" data-testid="storage-products" />
          <p className="ec-storage__note">{t('storage.usageNote')}</p>
        </>
      ) : null}
    </Card>
  );
}
