/**
 * A change awaiting confirmation: the seconds left until the previous settings come back by
 * themselves, and the button that keeps the change. Once the time is up the page re-reads the
 * settings (the server rolled back).
 */
import { useEffect, useState, type JSX } from 'react';
import Alert from '@arco-design/web-react/es/Alert';
import Button from '@arco-design/web-react/es/Button';
import { useTranslation } from 'react-i18next';
import { FormError } from '../../components/FormError.tsx';
import { errorMessage } from '../../lib/error-text.ts';
import { confirmNetwork } from './networkApi.ts';

export interface PendingApplyBannerProps {
  pending: { applyId: string; confirmBy: string };
  onConfirmed: () => void;
  /** The deadline passed: the server restored the previous settings (or is about to). */
  onExpired: () => void;
}

function secondsUntil(deadline: number): number {
  return Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
}

export function PendingApplyBanner({ pending, onConfirmed, onExpired }: PendingApplyBannerProps): JSX.Element {
  const { t } = useTranslation('network');
  const deadline = Date.parse(pending.confirmBy);
  const [left, setLeft] = useState(() => secondsUntil(deadline));
  const [confirming, setConfirming] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  useEffect(() => {
    const timer = setInterval(() => setLeft(secondsUntil(deadline)), 1000);
    return () => clearInterval(timer);
  }, [deadline]);

  useEffect(() => {
    if (left > 0) return;
    // The server's timer runs at the same deadline; give it a moment before reading back.
    const timer = setTimeout(onExpired, 1500);
    return () => clearTimeout(timer);
  }, [left, onExpired]);

  const confirm = async (): Promise<void> => {
    setConfirming(true);
    setFailure(null);
    try {
      await confirmNetwork(pending.applyId);
      onConfirmed();
    } catch (err) {
      setFailure(`${t('pending.confirmFailed')}: ${errorMessage(err)}`);
    } finally {
      setConfirming(false);
    }
  };

  return (
    <Alert
      type="warning"
      title={t('pending.title')}
      data-testid="network-pending"
      content={
        <>
          <span data-testid="network-countdown">{left > 0 ? t('pending.countdown', { seconds: left }) : t('pending.overdue')}</span>
          <FormError message={failure} testId="network-confirm-error" />
        </>
      }
      action={
        <Button type="primary" size="small" loading={confirming} disabled={left === 0} onClick={() => void confirm()} data-testid="network-confirm">
          {t('action.confirm')}
        </Button>
      }
    />
  );
}
