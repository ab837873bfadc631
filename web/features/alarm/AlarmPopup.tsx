/**
 * The alarm popup: polls the first page of ACTIVE_UNACK alarms (page 1, size 10) every
 * `alarmPollIntervalMs` (60 s by default; settings drawer), and shows the first one top right for
 * `alarmPopupDuration` seconds (5 by default). Clicking it opens that alarm in the alarm record.
 * Failures are only logged: a popup must never raise an error message of its own.
 */
import { useEffect, type JSX } from 'react';
import Notification from '@arco-design/web-react/es/Notification';
import { useTranslation } from 'react-i18next';
import type { Alarm } from '../../../server/contract/alarm.ts';
import { consolePaths } from '../../../server/contract/console-paths.ts';
import { isCancelled } from '../../lib/api-client.ts';
import { formatDateTime } from '../../lib/date-format.ts';
import { navigateGuarded } from '../../lib/navigation.ts';
import { useSettings } from '../../stores/settings.ts';
import { pollActiveUnack } from './alarmApi.ts';
import './alarm.css';

/** The spec's poll: status ACTIVE_UNACK, page 1, size 10; only the first is shown. */
export const ALARM_POPUP_PAGE_SIZE = 10;
const POPUP_ID = 'alarm-popup';

/** Mounted once by the main layout; renders nothing itself. */
/** Stands for the time in the translated text, which then puts it in an unbreakable span. */
const TIME_MARK = '\u0001';

/**
 * The popup's text with its time kept on one line: a narrow popup otherwise wraps inside the date
 * ("2026-11-" / "25 18:39:37").
 */
function withTime(text: string, time: string): JSX.Element {
  const [before = '', after = ''] = text.split(TIME_MARK);
  return (
    <>
      {before}
      <span className="ec-alarm-popup__time">{time}</span>
      {after}
    </>
  );
}

export function AlarmPopup(): null {
  const { t } = useTranslation('alarm');
  const intervalMs = useSettings((s) => s.alarmPollIntervalMs);
  const durationS = useSettings((s) => s.alarmPopupDurationS);

  useEffect(() => {
    let live = true;
    const show = (alarm: Alarm): void => {
      const open = (): void => {
        Notification.remove(POPUP_ID);
        void navigateGuarded(`${consolePaths.alarmRecord}?alarmId=${encodeURIComponent(alarm.id)}`);
      };
      // The two worst severities show as errors, the others as warnings.
      const notify = alarm.severity === 'CRITICAL' || alarm.severity === 'MAJOR' ? Notification.error : Notification.warning;
      notify({
        id: POPUP_ID,
        position: 'topRight',
        duration: durationS * 1000,
        closable: true,
        title: t('popup.title', { severity: t(`severity.${alarm.severity}`), type: alarm.type }),
        content: (
          <button type="button" className="ec-alarm-popup" onClick={open} data-testid="alarm-popup" title={t('action.openRecord')}>
            {withTime(
              t('popup.content', { device: alarm.deviceAlias || alarm.deviceName || t('popup.noDevice'), scene: alarm.sceneName, time: TIME_MARK }),
              formatDateTime(alarm.endTs ?? alarm.startTs),
            )}
          </button>
        ),
      });
    };
    const poll = async (): Promise<void> => {
      try {
        const page = await pollActiveUnack(ALARM_POPUP_PAGE_SIZE);
        const first = page.items[0];
        if (live && first) show(first);
      } catch (err) {
        // A language switch restarts the poll, which cancels the one in flight: nothing failed.
        if (!isCancelled(err)) console.warn('alarm popup: poll failed', err);
      }
    };
    void poll();
    const timer = setInterval(() => void poll(), intervalMs);
    return () => {
      live = false;
      clearInterval(timer);
    };
  }, [intervalMs, durationS, t]);

  return null;
}
