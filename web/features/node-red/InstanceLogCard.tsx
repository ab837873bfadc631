/**
 * The last lines an instance logged (the supervisor keeps 200 in memory), followed live while the
 * page is open. Following is a bounded poll of the log route rather than a live command of the
 * realtime host: the log is a small, bounded snapshot that is complete on every answer (no
 * sequence numbers, no missed-message recovery), and only this page of one administrator reads it.
 */
import { useCallback, useEffect, useRef, useState, type JSX } from 'react';
import Card from '@arco-design/web-react/es/Card';
import Switch from '@arco-design/web-react/es/Switch';
import { useTranslation } from 'react-i18next';
import { instanceLog } from './nodeRedApi.ts';

/** How often a followed log is fetched again. */
export const LOG_FOLLOW_MS = 2000;

export function InstanceLogCard({ id }: { id: string }): JSX.Element {
  const { t } = useTranslation('nodeRed');
  const [lines, setLines] = useState<string[]>([]);
  const [live, setLive] = useState(true);
  const pre = useRef<HTMLPreElement>(null);
  const load = useCallback(() => instanceLog(id).then((l) => setLines(l.lines), () => undefined), [id]);
  useEffect(() => void load(), [load]);
  useEffect(() => {
    if (!live) return undefined;
    const timer = setInterval(() => void load(), LOG_FOLLOW_MS);
    return () => clearInterval(timer);
  }, [live, load]);
  // Following keeps the newest line in view, as `tail -f` does.
  useEffect(() => {
    if (live && pre.current) pre.current.scrollTop = pre.current.scrollHeight;
  }, [lines, live]);
  return (
    <Card
      title={t('log')}
      bordered={false}
      extra={
        <span style={{ display: 'inline-flex', gap: 8, alignItems: 'center' }}>
          <Switch size="small" checked={live} onChange={setLive} data-testid="node-red-log-live" aria-label={t('logLive')} />
          <span>{live ? t('logLive') : t('logPaused')}</span>
        </span>
      }
    >
      {/* Focusable so the keyboard can scroll a long log (a scrollable region must be reachable). */}
      <pre
        ref={pre}
        className="ec-node-red__log"
        tabIndex={0}
        role="region"
        aria-label={t('log')}
        data-testid="node-red-log"
        style={{ maxHeight: 320, overflow: 'auto', margin: 0, whiteSpace: 'pre-wrap' }}
      >
        {lines.length ? lines.join('\n') : t('logEmpty')}
      </pre>
    </Card>
  );
}
