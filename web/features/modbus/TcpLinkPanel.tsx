/**
 * How a TCP device reaches the gateway now (server/contract/modbus.ts, `TcpLink`): access mode,
 * connection, remote address, registration, the last frame as hex bytes, and the error counters.
 */
import type { JSX } from 'react';
import Button from '@arco-design/web-react/es/Button';
import Descriptions from '@arco-design/web-react/es/Descriptions';
import Tag from '@arco-design/web-react/es/Tag';
import IconRefresh from '@arco-design/web-react/icon/react-icon/IconRefresh';
import { useTranslation } from 'react-i18next';
import { deviceDetailPath } from '../../../server/contract/console-paths.ts';
import type { TcpCounters, TcpLink } from '../../../server/contract/modbus.ts';
import { CodeBlock } from '../../components/CodeBlock.tsx';
import { formatDateTime } from '../../lib/date-format.ts';
import { navigateGuarded } from '../../lib/navigation.ts';
import { hexByteCount, spacedHex } from './modbusFormat.ts';

const counterKeys: readonly (keyof TcpCounters)[] = ['polls', 'answered', 'timeouts', 'crcErrors', 'exceptions', 'badFrames', 'framesIn'];
/** Counters that count trouble: shown in the warning colour once above zero. */
const troubleCounters: ReadonlySet<keyof TcpCounters> = new Set(['timeouts', 'crcErrors', 'exceptions', 'badFrames']);

export function TcpLinkPanel({ link, onRefresh }: { link: TcpLink; onRefresh: () => void }): JSX.Element {
  const { t } = useTranslation('modbus');
  const dash = (value: string | null): string => value || '—';
  const time = (ms: number | null): string => (ms ? formatDateTime(ms) : '—');

  const data = [
    { label: t('link.modeLabel'), value: <span data-testid="tcp-link-mode">{t(`link.mode.${link.mode ?? 'NONE'}`)}</span> },
    {
      label: t('link.state'),
      value: (
        <Tag color={link.connected ? 'green' : 'gray'} data-testid="tcp-link-state">
          {link.connected ? t('link.connected') : t('link.disconnected')}
        </Tag>
      ),
    },
    { label: t('link.remoteAddress'), value: <span data-testid="tcp-link-remote">{dash(link.remoteAddress)}</span> },
    { label: t('link.registration'), value: <code data-testid="tcp-link-registration">{dash(link.registration)}</code> },
    ...(link.carrierDeviceId
      ? [
          {
            label: t('link.carrier'),
            value: (
              <Button type="text" size="mini" onClick={() => void navigateGuarded(deviceDetailPath(link.carrierDeviceId!))} data-testid="tcp-link-carrier">
                {link.carrierDeviceId}
              </Button>
            ),
          },
        ]
      : []),
    { label: t('link.connectedSince'), value: time(link.connectedSince) },
    { label: t('link.lastAnswer'), value: <span data-testid="tcp-link-last-answer">{time(link.lastAnswerTs)}</span> },
    ...(link.backoffUntil ? [{ label: t('link.backoffUntil'), value: <Tag color="orange">{time(link.backoffUntil)}</Tag> }] : []),
  ];

  return (
    <section className="ec-modbus-card" aria-labelledby="tcp-link-title" data-testid="tcp-link">
      <header className="ec-modbus-card__head">
        <h3 id="tcp-link-title">{t('link.title')}</h3>
        <Button size="small" icon={<IconRefresh />} onClick={onRefresh} data-testid="tcp-link-refresh">
          {t('link.refresh')}
        </Button>
      </header>
      <Descriptions column={{ xs: 1, md: 2 }} data={data} border labelStyle={{ width: 130 }} />
      <div className="ec-modbus-frame">
        <div className="ec-modbus-frame__head">
          <span>{t('link.lastFrame')}</span>
          {link.lastFrameHex ? (
            <span className="ec-modbus-muted" data-testid="tcp-link-frame-meta">
              {t('link.lastFrameMeta', { time: time(link.lastFrameTs), count: hexByteCount(link.lastFrameHex) })}
            </span>
          ) : null}
        </div>
        {link.lastFrameHex ? (
          <CodeBlock compact wrap text={spacedHex(link.lastFrameHex)} label={t('link.lastFrame')} testId="tcp-link-frame" />
        ) : (
          <span className="ec-modbus-muted" data-testid="tcp-link-no-frame">
            {t('link.noFrame')}
          </span>
        )}
      </div>
      <div className="ec-modbus-counters" role="group" aria-label={t('link.countersTitle')}>
        {counterKeys.map((key) => {
          const value = link.counters[key];
          const bad = troubleCounters.has(key) && value > 0;
          return (
            <div key={key} className={bad ? 'ec-modbus-counter ec-modbus-counter--bad' : 'ec-modbus-counter'}>
              <span className="ec-modbus-counter__label">{t(`link.counters.${key}`)}</span>
              <span className="ec-modbus-counter__value" data-testid={`tcp-counter-${key}`}>
                {value}
              </span>
            </div>
          );
        })}
      </div>
    </section>
  );
}
