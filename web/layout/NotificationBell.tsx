/**
 * The header bell: the unread notification count, live (NOTIFICATIONS_COUNT over /api/ws), and on
 * click the newest notifications, each marked read on its own or all at once. An alarm
 * notification opens its alarm record.
 */
import { useState, type JSX } from 'react';
import Badge from '@arco-design/web-react/es/Badge';
import Button from '@arco-design/web-react/es/Button';
import Empty from '@arco-design/web-react/es/Empty';
import Popover from '@arco-design/web-react/es/Popover';
import Spin from '@arco-design/web-react/es/Spin';
import IconNotification from '@arco-design/web-react/icon/react-icon/IconNotification';
import { useTranslation } from 'react-i18next';
import type { Notification } from '../../server/contract/notification.ts';
import { consolePaths } from '../../server/contract/console-paths.ts';
import { formatDateTime } from '../lib/date-format.ts';
import { navigateGuarded } from '../lib/navigation.ts';
import { listNotifications, readAllNotifications, readNotifications } from '../features/alarm/alarmApi.ts';
import { useUnreadNotifications } from '../features/alarm/use-alarm-live.ts';

const LIST_SIZE = 20;

export function NotificationBell(): JSX.Element {
  const { t } = useTranslation('alarm');
  const unread = useUnreadNotifications();
  const [open, setOpen] = useState(false);
  const [items, setItems] = useState<Notification[] | null>(null);

  const load = async (): Promise<void> => {
    try {
      setItems((await listNotifications(LIST_SIZE)).items);
    } catch {
      setItems([]);
    }
  };

  const markRead = async (ids: string[]): Promise<void> => {
    await readNotifications(ids);
    setItems((list) => list?.map((n) => (ids.includes(n.id) ? { ...n, status: 'READ' } : n)) ?? null);
  };

  const markAll = async (): Promise<void> => {
    await readAllNotifications();
    setItems((list) => list?.map((n) => ({ ...n, status: 'READ' })) ?? null);
  };

  const openAlarm = (n: Notification): void => {
    if (n.status === 'SENT') void markRead([n.id]).catch(() => undefined);
    if (!n.info.alarmId) return;
    setOpen(false);
    void navigateGuarded(`${consolePaths.alarmRecord}?alarmId=${encodeURIComponent(n.info.alarmId)}`);
  };

  const text = (n: Notification): string =>
    n.text ??
    (n.type === 'ALARM'
      ? t('bell.alarmText', {
          device: n.info.deviceName ?? t('popup.noDevice'),
          type: n.subject,
          severity: n.info.severity ? t(`severity.${n.info.severity}`) : '',
        })
      : n.subject);

  const content = (
    <div className="ec-bell" data-testid="bell-list">
      <div className="ec-bell__head">
        <strong>{t('bell.title')}</strong>
        <Button type="text" size="mini" disabled={!unread} onClick={() => void markAll().catch(() => undefined)} data-testid="bell-read-all">
          {t('bell.markAllRead')}
        </Button>
      </div>
      {items === null ? (
        <Spin block />
      ) : items.length === 0 ? (
        <Empty description={t('bell.empty')} />
      ) : (
        <ul className="ec-bell__list">
          {items.map((n) => (
            <li key={n.id} className={n.status === 'SENT' ? 'ec-bell__item ec-bell__item--unread' : 'ec-bell__item'} data-testid={`bell-item-${n.id}`}>
              <button type="button" className="ec-bell__text" onClick={() => openAlarm(n)}>
                <span className="ec-bell__subject">
                  {n.status === 'SENT' ? <Badge status="processing" aria-label={t('bell.unread')} /> : null}
                  {n.subject}
                </span>
                <span className="ec-bell__body">{text(n)}</span>
                <span className="ec-bell__time">{formatDateTime(n.createdTime)}</span>
              </button>
              {n.status === 'SENT' ? (
                <Button type="text" size="mini" onClick={() => void markRead([n.id]).catch(() => undefined)} data-testid={`bell-read-${n.id}`}>
                  {t('bell.markRead')}
                </Button>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </div>
  );

  const label = unread ? t('bell.labelCount', { count: unread }) : t('bell.label');
  return (
    <Popover
      trigger="click"
      position="br"
      // Arco caps a popover at 350 px; the list (.ec-bell, layout.css) sets its own width instead.
      style={{ maxWidth: 'none' }}
      popupVisible={open}
      onVisibleChange={(visible) => {
        setOpen(visible);
        if (visible) void load();
      }}
      content={content}
    >
      <span className="ec-bell__anchor">
        <Badge count={unread ?? 0} maxCount={99} offset={[-2, 2]} data-testid="bell-count">
          <Button shape="circle" type="secondary" className="header-action" icon={<IconNotification />} aria-label={label} title={label} data-testid="header-bell" />
        </Badge>
      </span>
    </Popover>
  );
}
