/** The step bar of an import flow; the current step is announced to screen readers. */
import type { JSX } from 'react';
import Steps from '@arco-design/web-react/es/Steps';

export function WizardSteps({ current, titles, testId }: { current: number; titles: string[]; testId: string }): JSX.Element {
  return (
    <Steps current={current + 1} size="small" className="ec-wizard__steps" data-testid={testId}>
      {titles.map((title, i) => (
        <Steps.Step key={title} title={title} aria-current={i === current ? 'step' : undefined} />
      ))}
    </Steps>
  );
}
