/**
 * The factory-reset wait (console spec: 1 to 3 minutes), with real progress: the gateway accepted
 * the reset, stopped answering while it restarts, then answers setup state with no administrator.
 * The session is gone with the old database, so the page then leaves for the activation wizard.
 */
import { useEffect, useState, type JSX } from 'react';
import Button from '@arco-design/web-react/es/Button';
import Card from '@arco-design/web-react/es/Card';
import Spin from '@arco-design/web-react/es/Spin';
import IconCheckCircleFill from '@arco-design/web-react/icon/react-icon/IconCheckCircleFill';
import { useTranslation } from 'react-i18next';
import { consolePaths } from '../../../server/contract/console-paths.ts';
import { sessionActions } from '../../stores/session.ts';
import { pollSetupState } from './systemApi.ts';
import '../cloud/cloud.css';
import './system-config.css';

const POLL_MS = 1500;
/** After this many polls without an answer the screen says it is still waiting. */
const SLOW_POLLS = 80;

type Phase = 'accepted' | 'restarting' | 'ready';

export function FactoryResetWait(): JSX.Element {
  const { t } = useTranslation('system');
  const [phase, setPhase] = useState<Phase>('accepted');
  const [polls, setPolls] = useState(0);

  useEffect(() => {
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = async (): Promise<void> => {
      const state = await pollSetupState();
      if (!live) return;
      setPolls((n) => n + 1);
      if (state && !state.adminCreated) {
        setPhase('ready');
        // The old tokens name users of a database that is gone.
        sessionActions.reset();
        return;
      }
      if (!state) setPhase('restarting');
      timer = setTimeout(() => void poll(), POLL_MS);
    };
    void poll();
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, []);

  const step = (done: boolean, label: string, testId: string): JSX.Element => (
    <li data-testid={testId} data-done={done}>
      {done ? <IconCheckCircleFill className="ec-cloud-loading__done" /> : <Spin size={14} />}
      <span className={done ? undefined : 'ec-cloud-loading__waiting'}>{label}</span>
    </li>
  );
  const ready = phase === 'ready';
  return (
    <Card bordered={false} className="ec-reset-wait">
      <div data-testid="reset-wait" data-phase={phase} aria-live="polite">
        <h2 className="ec-system-config__title">{t('resetWait.title')}</h2>
        <p>{t('resetWait.intro')}</p>
        <ul className="ec-cloud-loading__steps">
          {step(true, t('resetWait.accepted'), 'reset-wait-accepted')}
          {step(phase !== 'accepted', t('resetWait.restarting'), 'reset-wait-restarting')}
          {step(ready, t('resetWait.ready'), 'reset-wait-ready')}
        </ul>
        {!ready && polls > SLOW_POLLS ? <p className="ec-cloud-loading__waiting">{t('resetWait.slow')}</p> : null}
        {ready ? (
          <>
            <p>{t('resetWait.newCode')}</p>
            {/* A full load: every store of the old session starts afresh. */}
            <Button type="primary" onClick={() => window.location.assign(consolePaths.guide)} data-testid="reset-wait-wizard">
              {t('resetWait.toWizard')}
            </Button>
          </>
        ) : null}
      </div>
    </Card>
  );
}
