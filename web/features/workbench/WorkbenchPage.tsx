/**
 * Dashboard → Workbench: counts of products, devices, messages and alarms; the gateway's CPU,
 * memory and disk (refreshed every 10 s with the counts); the message volume chart over 1 hour, 1
 * day, 7 days, 30 days or a custom range; quick entries (and operation management's guide
 * entries); help documents. Alarms say plainly that they arrive with a later release while the
 * server reports them unavailable, instead of showing an invented zero.
 */
import { useCallback, useEffect, useId, useMemo, useState, type JSX, type ReactNode } from 'react';
import Alert from '@arco-design/web-react/es/Alert';
import Button from '@arco-design/web-react/es/Button';
import Card from '@arco-design/web-react/es/Card';
import Skeleton from '@arco-design/web-react/es/Skeleton';
import IconApps from '@arco-design/web-react/icon/react-icon/IconApps';
import IconDesktop from '@arco-design/web-react/icon/react-icon/IconDesktop';
import IconImport from '@arco-design/web-react/icon/react-icon/IconImport';
import IconTags from '@arco-design/web-react/icon/react-icon/IconTags';
import IconUserGroup from '@arco-design/web-react/icon/react-icon/IconUserGroup';
import { useTranslation } from 'react-i18next';
import { consolePaths } from '../../../server/contract/console-paths.ts';
import type { Permission } from '../../../server/contract/permissions.ts';
import type { MessageVolume, WorkbenchSummary } from '../../../server/contract/workbench.ts';
import type { ShownEntry } from '../../../server/contract/operation.ts';
import { LabelledProgress } from '../../components/LabelledProgress.tsx';
import { TimeSeriesChart, type ChartSeries } from '../../components/TimeSeriesChart.tsx';
import { TimeRangePicker, usePeriodLabel } from '../../components/TimeRangePicker.tsx';
import { formatBytes } from '../../components/file-check.ts';
import { periodOf, presetRange, refreshRange, type TimeRangeValue } from '../../components/time-range.ts';
import { isCancelled } from '../../lib/api-client.ts';
import { navigateGuarded } from '../../lib/navigation.ts';
import { useMyPermissions } from '../../stores/permissions.ts';
import { WorkbenchHelp } from './WorkbenchHelp.tsx';
import { loadMessageVolume, loadSummary } from './workbenchApi.ts';
import { useAlarmCount } from '../alarm/use-alarm-live.ts';
import { shownGuides } from '../operation/operationApi.ts';
import './workbench.css';

/** Counts and the gateway's CPU, memory and disk usage, kept fresh without hammering the gateway. */
const SUMMARY_REFRESH_MS = 10_000;
/** A quick range of the chart moves on with the clock at this pace. */
const VOLUME_REFRESH_MS = 60_000;

/** Each entry shows only to a user holding the permission of the page (or action) it opens. */
const quickEntries = [
  { key: 'product', path: consolePaths.product, icon: <IconApps />, permission: 'device_profile:list' },
  { key: 'device', path: consolePaths.device, icon: <IconDesktop />, permission: 'device:list' },
  { key: 'deviceImport', path: `${consolePaths.device}?import=csv`, icon: <IconImport />, permission: 'device:import' },
  { key: 'organization', path: consolePaths.organization, icon: <IconUserGroup />, permission: 'organization:list' },
  { key: 'category', path: consolePaths.category, icon: <IconTags />, permission: 'product_category:list' },
] as const satisfies readonly { key: string; path: string; icon: JSX.Element; permission: Permission }[];

function useSummary(): { summary: WorkbenchSummary | null; failed: boolean; reload: () => void } {
  const [summary, setSummary] = useState<WorkbenchSummary | null>(null);
  const [failed, setFailed] = useState(false);
  const load = useCallback(async (silent: boolean) => {
    try {
      setSummary(await loadSummary(silent));
      setFailed(false);
    } catch (err) {
      if (!isCancelled(err)) setFailed(true);
    }
  }, []);
  useEffect(() => {
    void load(false);
    const timer = setInterval(() => void load(true), SUMMARY_REFRESH_MS);
    return () => clearInterval(timer);
  }, [load]);
  return { summary, failed, reload: () => void load(false) };
}

function StatCard({ title, value, testId, children }: { title: string; value: ReactNode; testId: string; children?: ReactNode }): JSX.Element {
  return (
    <Card className="ec-wb-stat" bordered={false} data-testid={testId}>
      <div className="ec-wb-stat__title">{title}</div>
      <div className="ec-wb-stat__value" data-testid={`${testId}-value`}>
        {value}
      </div>
      <div className="ec-wb-stat__extra">{children}</div>
    </Card>
  );
}

const ANY_ALARM = ['ANY'] as const;
const UNACK_ALARM = ['UNACK'] as const;

function count(n: number): string {
  return n.toLocaleString();
}

/** Message counts are whole numbers: the axis shows no fractional ticks. */
function formatCount(value: number): string {
  return Number.isInteger(value) ? value.toLocaleString() : '';
}

function SummaryCards({ summary }: { summary: WorkbenchSummary | null }): JSX.Element {
  const { t } = useTranslation('workbench');
  // Live alarm counts (ALARM_COUNT over /api/ws): they follow each alarm as it is raised, handled or
  // cleared, between the summary's refreshes; null until the server answers (or when it refuses).
  const liveTotal = useAlarmCount(ANY_ALARM);
  const liveUnack = useAlarmCount(UNACK_ALARM);
  if (!summary) {
    return (
      <div className="ec-wb-stats">
        {[0, 1, 2, 3].map((i) => (
          <Card key={i} className="ec-wb-stat" bordered={false}>
            <Skeleton animation text={{ rows: 2 }} />
          </Card>
        ))}
      </div>
    );
  }
  const { devices, messages, alarms } = summary;
  return (
    <div className="ec-wb-stats">
      <StatCard title={t('summary.products')} value={count(summary.products)} testId="wb-products">
        {t('summary.productsHint')}
      </StatCard>
      <StatCard title={t('summary.devices')} value={count(devices.total)} testId="wb-devices">
        <span className="ec-wb-dot ec-wb-dot--online" data-testid="wb-devices-online">
          {t('summary.online')} {count(devices.online)}
        </span>
        <span className="ec-wb-dot ec-wb-dot--offline" data-testid="wb-devices-offline">
          {t('summary.offline')} {count(devices.offline)}
        </span>
        <span className="ec-wb-dot ec-wb-dot--inactive" data-testid="wb-devices-inactive">
          {t('summary.inactive')} {count(devices.inactive)}
        </span>
      </StatCard>
      {messages ? (
        <StatCard
          title={t('summary.messages')}
          value={
            <>
              {count(messages.today)}
              <span className="ec-wb-stat__unit">{t('summary.messagesToday')}</span>
            </>
          }
          testId="wb-messages"
        >
          <span data-testid="wb-messages-total">
            {t('summary.messagesTotal')} {count(messages.total)}
          </span>
        </StatCard>
      ) : null}
      {summary.alarmsAvailable || liveTotal !== null ? (
        <StatCard title={t('summary.alarms')} value={count(liveTotal ?? alarms.total)} testId="wb-alarms">
          <span data-testid="wb-alarms-unack">
            {t('summary.alarmsUnacknowledged')} {count(liveUnack ?? alarms.unacknowledged)}
          </span>
        </StatCard>
      ) : (
        <StatCard title={t('summary.alarms')} value={<span className="ec-wb-stat__later">{t('summary.alarmsLater')}</span>} testId="wb-alarms">
          {t('summary.alarmsLaterHint')}
        </StatCard>
      )}
    </div>
  );
}

/** Primary below 70 %, orange up to 90 %, red above: a glance tells whether the gateway is short. */
function loadColor(percent: number): string | undefined {
  if (percent >= 90) return 'rgb(var(--red-6))';
  if (percent >= 70) return 'rgb(var(--orange-6))';
  return undefined;
}

function percentOf(used: number, total: number): number {
  return total > 0 ? Math.min(100, (used / total) * 100) : 0;
}

function Gauge({ label, percent, detail, testId }: { label: string; percent: number; detail?: string; testId: string }): JSX.Element {
  const rounded = Math.round(percent * 10) / 10;
  const labelId = useId();
  return (
    <div className="ec-wb-gauge" data-testid={testId} data-percent={rounded}>
      <LabelledProgress type="circle" percent={rounded} color={loadColor(percent)} formatText={(p) => `${p}%`} labelledBy={labelId} />
      <div className="ec-wb-gauge__label" id={labelId}>
        {label}
      </div>
      {detail ? <div className="ec-wb-gauge__detail">{detail}</div> : null}
    </div>
  );
}

function SystemLoad({ summary }: { summary: WorkbenchSummary | null }): JSX.Element {
  const { t } = useTranslation('workbench');
  const system = summary?.system;
  return (
    <Card
      className="ec-wb-card"
      bordered={false}
      title={t('load.title')}
      extra={<span className="ec-wb-muted">{t('load.refreshHint')}</span>}
      data-testid="wb-load"
    >
      {system ? (
        <div className="ec-wb-gauges">
          <Gauge label={t('load.cpu')} percent={system.cpu} testId="wb-cpu" />
          <Gauge
            label={t('load.memory')}
            percent={percentOf(system.memory.used, system.memory.total)}
            detail={t('load.usedOfTotal', { used: formatBytes(system.memory.used), total: formatBytes(system.memory.total) })}
            testId="wb-memory"
          />
          <Gauge
            label={t('load.disk')}
            percent={percentOf(system.disk.used, system.disk.total)}
            detail={t('load.usedOfTotal', { used: formatBytes(system.disk.used), total: formatBytes(system.disk.total) })}
            testId="wb-disk"
          />
        </div>
      ) : (
        <Skeleton animation text={{ rows: 4 }} />
      )}
    </Card>
  );
}

function MessageVolumeCard(): JSX.Element {
  const { t } = useTranslation('workbench');
  const periodLabel = usePeriodLabel();
  const [range, setRange] = useState<TimeRangeValue>(() => presetRange('1h'));
  const [volume, setVolume] = useState<MessageVolume | null>(null);
  const [loading, setLoading] = useState(true);

  useEffect(() => {
    let live = true;
    setLoading(true);
    loadMessageVolume(range)
      .then((v) => live && setVolume(v))
      .catch(() => live && setVolume(null))
      .finally(() => live && setLoading(false));
    return () => {
      live = false;
    };
  }, [range]);

  useEffect(() => {
    if (range.range === 'custom') return undefined;
    const timer = setInterval(() => setRange((r) => refreshRange(r)), VOLUME_REFRESH_MS);
    return () => clearInterval(timer);
  }, [range.range]);

  const series = useMemo<ChartSeries[]>(() => {
    // The interval still filling (the clock is inside it) would read as a drop in traffic: left out.
    const buckets = (volume?.buckets ?? []).filter((b) => b.ts + volume!.intervalMs <= volume!.endTs);
    // No message at all in the range is an empty state, not a flat line that looks like data.
    const points = buckets.some((b) => b.count > 0) ? buckets.map((b) => ({ ts: b.ts, value: b.count })) : [];
    return [{ key: 'messages', label: t('volume.series'), points }];
  }, [volume, t]);

  return (
    <Card
      className="ec-wb-card ec-wb-volume"
      bordered={false}
      title={t('volume.title')}
      extra={volume ? <span className="ec-wb-muted" data-testid="wb-volume-interval">{t('volume.perInterval', { period: periodLabel(periodOf(volume.intervalMs)) })}</span> : null}
      data-testid="wb-volume"
    >
      <TimeRangePicker value={range} onChange={setRange} testId="wb-volume-range" />
      <div className="ec-wb-volume__chart">
        <TimeSeriesChart
          series={series}
          loading={loading}
          fill
          height={280}
          xRange={volume ? [volume.startTs, volume.endTs] : undefined}
          formatValue={formatCount}
          emptyText={
            <span>
              {t('volume.empty')}
              <br />
              <span className="ec-wb-muted">{t('volume.emptyHint')}</span>
            </span>
          }
          testId="wb-volume-chart"
        />
      </div>
    </Card>
  );
}

function QuickLink({ path, icon, label, testId }: { path: string; icon: ReactNode; label: string; testId: string }): JSX.Element {
  return (
    <a
      className="ec-wb-quick__entry"
      href={path}
      onClick={(e) => {
        e.preventDefault();
        void navigateGuarded(path);
      }}
      data-testid={testId}
    >
      <span className="ec-wb-quick__icon">{icon}</span>
      <span>{label}</span>
    </a>
  );
}

/** The built-in entries the user may open, then operation management's guide entries (enabled, by sort). */
function QuickEntries(): JSX.Element {
  const { t } = useTranslation('workbench');
  const mine = useMyPermissions();
  const [guides, setGuides] = useState<ShownEntry[]>([]);
  useEffect(() => {
    // Guide entries add to the built-in ones; without them the card still works.
    shownGuides().then(setGuides, () => undefined);
  }, []);
  return (
    <Card className="ec-wb-card" bordered={false} title={t('quick.title')} data-testid="wb-quick">
      <div className="ec-wb-quick">
        {quickEntries.filter((entry) => mine?.includes(entry.permission)).map((entry) => (
          <QuickLink key={entry.key} path={entry.path} icon={entry.icon} label={t(`quick.${entry.key}`)} testId={`wb-quick-${entry.key}`} />
        ))}
        {guides.map((g) => (
          <QuickLink key={g.id} path={g.url} icon={<img className="ec-wb-quick__image" src={g.image} alt="" />} label={g.name} testId={`wb-guide-${g.id}`} />
        ))}
      </div>
    </Card>
  );
}

export function WorkbenchPage(): JSX.Element {
  const { t } = useTranslation('workbench');
  const { summary, failed, reload } = useSummary();
  return (
    <div className="ec-wb" data-testid="workbench">
      {summary?.storage.telemetryRefused ? (
        <Alert type="error" banner title={t('storage.telemetryRefused')} content={t('storage.telemetryRefusedHint')} data-testid="wb-telemetry-refused" />
      ) : null}
      {failed && !summary ? (
        <Card className="ec-wb-card" bordered={false} data-testid="wb-failed">
          <div className="ec-wb-failed">
            <span>{t('loadFailed')}</span>
            <Button type="primary" size="small" onClick={reload} data-testid="wb-retry">
              {t('retry')}
            </Button>
          </div>
        </Card>
      ) : (
        <SummaryCards summary={summary} />
      )}
      {/* Whole-gateway figures: a customer's summary has none (their workbench is their organizations'). */}
      {summary?.system ? (
        <div className="ec-wb-row ec-wb-row--main">
          <MessageVolumeCard />
          <SystemLoad summary={summary} />
        </div>
      ) : null}
      <div className="ec-wb-row">
        <QuickEntries />
        <Card className="ec-wb-card" bordered={false} title={t('help.title')}>
          <WorkbenchHelp />
        </Card>
      </div>
    </div>
  );
}
