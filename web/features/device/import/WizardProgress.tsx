/** Progress of a wizard's one long call, shown while it runs and as complete once it answered. */
import type { JSX } from 'react';
import Progress from '@arco-design/web-react/es/Progress';

export function WizardProgress({ running, percent, label, testId }: { running: boolean; percent: number; label: string; testId: string }): JSX.Element | null {
  if (!running && percent !== 100) return null;
  return (
    <div className="ec-wizard__progress" role="status" aria-live="polite">
      <Progress percent={percent} status={running ? 'normal' : 'success'} data-testid={testId} />
      <span>{label}</span>
    </div>
  );
}
