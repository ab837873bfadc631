/**
 * An alarm list widget: the active alarms of its bound device (signed in and unbound: every device
 * in the user's scope), newest first, live. Signed in it follows ALARM_DATA on the console's
 * connection; through a share link the link's own socket, where the server sends only the alarms of
 * the devices the link's alarm lists bind. Read-only everywhere: acknowledging and clearing stay on
 * the alarm page, where permission and audit apply, so a wall display cannot act on an alarm.
 */
import { useEffect, useState, type JSX } from 'react';
import Tag from '@arco-design/web-react/es/Tag';
import { useTranslation } from 'react-i18next';
import type { AlarmSeverity } from '../../../server/contract/alarm.ts';
import type { AlarmDataUpdate } from '../../../server/contract/realtime.ts';
import { VIS_ALARM_ROWS_DEFAULT, VIS_ALARM_ROWS_MAX, type Widget } from '../../../server/contract/visualization.ts';
import { subscribe } from '../../lib/ws-client.ts';
import { severityColors } from '../alarm/alarmStyle.ts';
import { mergeAlarmRows, type AlarmRow } from './alarmRows.ts';
import { followShare } from './shareSocket.ts';
import type { ValueSource } from './useBindingValues.ts';

function rowsOf(widget: Widget): number {
  const n = widget.props.rows;
  return typeof n === 'number' && n >= 1 ? Math.min(Math.floor(n), VIS_ALARM_ROWS_MAX) : VIS_ALARM_ROWS_DEFAULT;
}

function useLiveAlarms(deviceId: string | undefined, severity: AlarmSeverity | undefined, max: number, enabled: boolean): AlarmRow[] {
  const [rows, setRows] = useState<AlarmRow[]>([]);
  useEffect(() => {
    if (!enabled) return undefined;
    setRows([]);
    const query = {
      ...(deviceId ? { entityFilter: { type: 'singleEntity' as const, singleEntity: { entityType: 'DEVICE' as const, id: deviceId } } } : {}),
      pageLink: { page: 0, pageSize: max, statusList: ['ACTIVE' as const], ...(severity ? { severityList: [severity] } : {}) },
    };
    return subscribe({ type: 'ALARM_DATA', query }, (update) => {
      if (update.errorCode || update.cmdUpdateType !== 'ALARM_DATA') return;
      const { data, update: changed } = update as AlarmDataUpdate;
      if (data) setRows(mergeAlarmRows([], data.data, max));
      else if (changed) setRows((r) => mergeAlarmRows(r, changed, max));
    });
  }, [deviceId, severity, max, enabled]);
  return rows;
}

function useSharedAlarms(shareToken: string | null, deviceId: string | undefined, severity: AlarmSeverity | undefined, max: number): AlarmRow[] {
  const [rows, setRows] = useState<AlarmRow[]>([]);
  useEffect(() => {
    if (!shareToken || !deviceId) return undefined;
    const mine = (list: readonly AlarmRow[]): AlarmRow[] => list.filter((a) => a.deviceId === deviceId && (!severity || a.severity === severity));
    return followShare(shareToken, { values: () => undefined, alarms: (list) => setRows((r) => mergeAlarmRows(r, mine(list), max)), gone: () => setRows([]) });
  }, [shareToken, deviceId, severity, max]);
  return rows;
}

export function AlarmListWidget({ widget, source }: { widget: Widget; source: ValueSource | null }): JSX.Element {
  const { t } = useTranslation(['visualization', 'alarm']);
  const deviceId = widget.binding?.deviceId;
  const severity = typeof widget.props.severity === 'string' && widget.props.severity ? (widget.props.severity as AlarmSeverity) : undefined;
  const max = rowsOf(widget);
  const live = useLiveAlarms(deviceId, severity, max, source?.kind === 'live');
  const shared = useSharedAlarms(source?.kind === 'share' ? source.shareToken : null, deviceId, severity, max);
  if (!source) return <span className="ec-vis__muted">{t('alarms.preview')}</span>;
  const rows = source.kind === 'live' ? live : shared;
  if (!rows.length) return <span className="ec-vis__muted" data-testid={`vis-alarms-empty-${widget.id}`}>{t('alarms.none')}</span>;
  return (
    <ul className="ec-vis__alarms" data-testid={`vis-alarms-${widget.id}`}>
      {rows.map((a) => (
        <li key={a.id} data-testid="vis-alarm-row">
          <Tag size="small" color={severityColors[a.severity]}>
            {t(`alarm:severity.${a.severity}`)}
          </Tag>
          <span className="ec-vis__alarm-type">{a.type}</span>
          <span className="ec-vis__muted">{a.deviceName ?? ''}</span>
          <time className="ec-vis__muted">{new Date(a.createdTime).toLocaleTimeString()}</time>
        </li>
      ))}
    </ul>
  );
}
