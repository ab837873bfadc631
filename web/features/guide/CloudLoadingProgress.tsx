/**
 * The wizard's "cloud data loading" wait (console spec, edge activation: 1-3 minutes) after the
 * cloud is saved: real progress from the cloud link's state (connected, devices announced, stored
 * data sent), read with the setup code, with Continue always available. Where the state cannot be
 * read (a gateway without the connector) it finishes at once, without a word.
 */
import { useEffect, useState, type JSX } from 'react';
import Button from '@arco-design/web-react/es/Button';
import Spin from '@arco-design/web-react/es/Spin';
import IconCheckCircleFill from '@arco-design/web-react/icon/react-icon/IconCheckCircleFill';
import { useTranslation } from 'react-i18next';
import { loadEdgeState, type EdgeStateSummary } from '../cloud/cloudApi.ts';
import '../cloud/cloud.css';

/** How often the wait asks again: the wizard has no session yet, so no live socket. */
const POLL_MS = 2000;

export function CloudLoadingProgress({ headers, onDone }: { headers?: Record<string, string>; onDone: () => void }): JSX.Element | null {
  const { t } = useTranslation('guide');
  const [state, setState] = useState<EdgeStateSummary | null>(null);

  useEffect(() => {
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = async (): Promise<void> => {
      const next = await loadEdgeState(headers);
      if (!live) return;
      if (!next) {
        onDone();
        return;
      }
      setState(next);
      timer = setTimeout(() => void poll(), POLL_MS);
    };
    void poll();
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [headers, onDone]);

  if (!state) return null;
  const connected = state.status === 'CONNECTED';
  const announced = connected && state.pendingCloudEvents === 0;
  const sent = connected && state.backlog.messages === 0;
  const step = (done: boolean, label: string, testId: string): JSX.Element => (
    <li data-testid={testId} data-done={done}>
      {done ? <IconCheckCircleFill className="ec-cloud-loading__done" /> : <Spin size={14} />}
      <span className={done ? undefined : 'ec-cloud-loading__waiting'}>{label}</span>
    </li>
  );
  return (
    <div data-testid="cloud-loading" aria-live="polite">
      <h3>{t('cloud.loadingTitle')}</h3>
      <p className="ec-guide-intro">{t('cloud.loadingIntro')}</p>
      <ul className="ec-cloud-loading__steps">
        {step(connected, t('cloud.loadingConnected'), 'cloud-loading-connected')}
        {step(
          announced,
          announced || state.pendingCloudEvents === 0 ? t('cloud.loadingDevices') : t('cloud.loadingDevicesLeft', { count: state.pendingCloudEvents }),
          'cloud-loading-devices',
        )}
        {step(sent, sent ? t('cloud.loadingBacklog') : t('cloud.loadingBacklogLeft', { count: state.backlog.messages }), 'cloud-loading-backlog')}
      </ul>
      {state.lastError && !connected ? <p className="ec-cloud-loading__waiting">{t('cloud.loadingError', { error: state.lastError })}</p> : null}
      <div className="ec-guide-actions">
        <Button type="primary" onClick={onDone} data-testid="cloud-loading-continue">
          {t('cloud.continue')}
        </Button>
      </div>
    </div>
  );
}
