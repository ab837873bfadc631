/**
 * System configuration → basic info: what the gateway reads about itself (GET /api/yt/system/info):
 * serial number, version and build commit, uptime, clock and NTP, CPU, memory, disk and data-dir use.
 */
import type { JSX } from 'react';
import Button from '@arco-design/web-react/es/Button';
import Card from '@arco-design/web-react/es/Card';
import Descriptions from '@arco-design/web-react/es/Descriptions';
import { useTranslation } from 'react-i18next';
import type { SystemInfo } from '../../../server/contract/system.ts';
import { formatBytes } from '../../components/file-check.ts';
import { FormError } from '../../components/FormError.tsx';
import { formatDateTime } from '../../lib/date-format.ts';

export interface BasicInfoCardProps {
  info: SystemInfo | null;
  failure: string | null;
  onRefresh: () => void;
}

type NtpKey = 'basic.ntpOff' | 'basic.ntpOn' | 'basic.ntpUnknown' | 'basic.ntpSynced' | 'basic.ntpNotSynced';

function ntpText(info: SystemInfo, t: (key: NtpKey) => string): string {
  if (!info.ntp.enabled) return t('basic.ntpOff');
  const synced = info.ntp.synced === null ? t('basic.ntpUnknown') : info.ntp.synced ? t('basic.ntpSynced') : t('basic.ntpNotSynced');
  return `${t('basic.ntpOn')} · ${synced}`;
}

export function BasicInfoCard({ info, failure, onRefresh }: BasicInfoCardProps): JSX.Element {
  const { t } = useTranslation('system');
  const usage = (part: { used: number; total: number }): string => t('basic.usage', { used: formatBytes(part.used), total: formatBytes(part.total) });
  const uptime = (s: number): string => t('basic.uptimeValue', { days: Math.floor(s / 86400), hours: Math.floor((s % 86400) / 3600), minutes: Math.floor((s % 3600) / 60) });
  const rows = info
    ? [
        { label: t('basic.deviceSn'), value: <span data-testid="system-info-sn">{info.deviceSn}</span> },
        { label: t('basic.version'), value: <span data-testid="system-info-version">{info.version}</span> },
        { label: t('basic.commit'), value: info.commit ?? '-' },
        { label: t('basic.uptime'), value: uptime(info.uptimeS) },
        { label: t('basic.systemTime'), value: <span data-testid="system-info-time">{formatDateTime(info.systemTime)}</span> },
        { label: t('basic.timeZone'), value: <span data-testid="system-info-zone">{info.timeZone}</span> },
        { label: t('basic.ntp'), value: ntpText(info, (key) => t(key)) },
        { label: t('basic.ntpServers'), value: info.ntp.servers.join(', ') || t('basic.ntpServersDefault') },
        { label: t('basic.cpu'), value: t('basic.cpuValue', { percent: info.cpu.percent, cores: info.cpu.cores }) },
        { label: t('basic.memory'), value: usage(info.memory) },
        { label: t('basic.disk'), value: usage(info.disk) },
        { label: t('basic.dataDir'), value: t('basic.dataDirValue', { path: info.dataDir.path, size: formatBytes(info.dataDir.bytes) }) },
        { label: t('basic.written'), value: info.written.bytes === null ? t('basic.writtenUnknown') : formatBytes(info.written.bytes) },
        { label: t('basic.applier'), value: t(`appliers.${info.applier}`) },
      ]
    : [];
  return (
    <Card
      title={<h2 className="ec-system-config__title">{t('basic.title')}</h2>}
      extra={<Button size="small" onClick={onRefresh} data-testid="system-info-refresh">{t('basic.refresh')}</Button>}
      bordered={false}
      loading={!info && !failure}
    >
      <FormError message={failure ? t('basic.loadFailed', { message: failure }) : null} testId="system-info-error" />
      <div data-testid="system-info">
        <Descriptions column={{ xs: 1, md: 2 }} size="small" border data={rows} />
      </div>
    </Card>
  );
}
