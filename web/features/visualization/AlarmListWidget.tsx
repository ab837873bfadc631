/**
 * An alarm list widget: the active alarms of the devices it names and of its product's devices
 * (signed in and naming nothing: every device in the user's scope), newest first, live. Signed in
 * it follows ALARM_DATA on the console's connection; through a share link the link's own socket,
 * where the server sends only the alarms of the devices each alarm list names, marked with the
 * lists they belong to. Read-only everywhere: acknowledging and clearing stay on
 * the alarm page, where permission and audit apply, so a wall display cannot act on an alarm.
 */
import { useEffect, useMemo, useState, type JSX } from 'react';
import Tag from '@arco-design/web-react/es/Tag';
import { useTranslation } from 'react-i18next';
import type { AlarmSeverity } from '../../../server/contract/alarm.ts';
import type { AlarmDataUpdate, EntityFilter } from '../../../server/contract/realtime.ts';
import { VIS_ALARM_ROWS_DEFAULT, VIS_ALARM_ROWS_MAX, type SharedAlarm, type Widget } from '../../../server/contract/visualization.ts';
import { subscribe } from '../../lib/ws-client.ts';
import { severityColors } from '../alarm/alarmStyle.ts';
import { getProduct } from '../product/productApi.ts';
import { mergeAlarmRows, type AlarmRow } from './alarmRows.ts';
import { followShare } from './shareSocket.ts';
import type { ValueSource } from './useBindingValues.ts';

function rowsOf(widget: Widget): number {
  const n = widget.props.rows;
  return typeof n === 'number' && n >= 1 ? Math.min(Math.floor(n), VIS_ALARM_ROWS_MAX) : VIS_ALARM_ROWS_DEFAULT;
}

/** The ALARM_DATA filters of an alarm list: its devices, its product (by name, as ThingsBoard's device type); none: every device in scope. */
function useAlarmFilters(widget: Widget): EntityFilter[] | undefined {
  const deviceIds = [...new Set([...(widget.binding ? [widget.binding.deviceId] : []), ...(widget.alarmSource?.deviceIds ?? [])])];
  const productId = widget.alarmSource?.productId;
  const [productName, setProductName] = useState<string | null>(null);
  useEffect(() => {
    setProductName(null);
    if (!productId) return undefined;
    let stopped = false;
    // A product that is gone names no device.
    getProduct(productId).then(
      (p) => !stopped && setProductName(p.name),
      () => undefined,
    );
    return () => {
      stopped = true;
    };
  }, [productId]);
  const devicesText = deviceIds.join(',');
  return useMemo(() => {
    const filters: EntityFilter[] = [];
    if (devicesText) filters.push({ type: 'entityList', entityType: 'DEVICE', entityList: devicesText.split(',') });
    if (productName) filters.push({ type: 'deviceType', deviceTypes: [productName] });
    // Named but not resolved yet (or gone): nothing rather than every device.
    return filters.length || (!productId && !devicesText) ? filters : undefined;
  }, [devicesText, productName, productId]);
}

/** Signed in: one ALARM_DATA subscription per filter (none: one over the whole scope), their rows merged. */
function useLiveAlarms(filters: EntityFilter[] | undefined, severity: AlarmSeverity | undefined, max: number, enabled: boolean): AlarmRow[] {
  const [rows, setRows] = useState<AlarmRow[]>([]);
  useEffect(() => {
    setRows([]);
    if (!enabled || !filters) return undefined;
    const lists: AlarmRow[][] = (filters.length ? filters : [undefined]).map(() => []);
    const offs = (filters.length ? filters : [undefined]).map((entityFilter, i) => {
      const query = {
        ...(entityFilter ? { entityFilter } : {}),
        pageLink: { page: 0, pageSize: max, statusList: ['ACTIVE' as const], ...(severity ? { severityList: [severity] } : {}) },
      };
      return subscribe({ type: 'ALARM_DATA', query }, (update) => {
        if (update.errorCode || update.cmdUpdateType !== 'ALARM_DATA') return;
        const { data, update: changed } = update as AlarmDataUpdate;
        if (data) lists[i] = mergeAlarmRows([], data.data, max);
        else if (changed) lists[i] = mergeAlarmRows(lists[i]!, changed, max);
        else return;
        setRows(mergeAlarmRows([], lists.flat(), max));
      });
    });
    return () => offs.forEach((off) => off());
  }, [filters, severity, max, enabled]);
  return rows;
}

/** Through a share link: the rows the server marks as this list's (it sends only the devices each list names). */
function useSharedAlarms(shareToken: string | null, widgetId: string, severity: AlarmSeverity | undefined, max: number): AlarmRow[] {
  const [rows, setRows] = useState<AlarmRow[]>([]);
  useEffect(() => {
    if (!shareToken) return undefined;
    const mine = (list: readonly SharedAlarm[]): AlarmRow[] => list.filter((a) => a.widgetIds.includes(widgetId) && (!severity || a.severity === severity));
    return followShare(shareToken, { values: () => undefined, alarms: (list) => setRows((r) => mergeAlarmRows(r, mine(list), max)), gone: () => setRows([]) });
  }, [shareToken, widgetId, severity, max]);
  return rows;
}

export function AlarmListWidget({ widget, source }: { widget: Widget; source: ValueSource | null }): JSX.Element {
  const { t } = useTranslation(['visualization', 'alarm']);
  const filters = useAlarmFilters(widget);
  const severity = typeof widget.props.severity === 'string' && widget.props.severity ? (widget.props.severity as AlarmSeverity) : undefined;
  const max = rowsOf(widget);
  const live = useLiveAlarms(filters, severity, max, source?.kind === 'live');
  const shared = useSharedAlarms(source?.kind === 'share' ? source.shareToken : null, widget.id, severity, max);
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
