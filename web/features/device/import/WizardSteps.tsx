/**
 * The step bar of an import flow; the current step is announced to screen readers. On a phone the
 * steps stand one under the other: four labels side by side spilled out of a 390 px screen.
 */
import type { JSX } from 'react';
import Steps from '@arco-design/web-react/es/Steps';
import { useNarrow } from '../../../lib/use-narrow.ts';

export function WizardSteps({ current, titles, testId }: { current: number; titles: string[]; testId: string }): JSX.Element {
  const narrow = useNarrow();
  return (
    <Steps current={current + 1} size="small" direction={narrow ? 'vertical' : 'horizontal'} className="ec-wizard__steps" data-testid={testId}>
      {titles.map((title, i) => (
        <Steps.Step key={title} title={title} aria-current={i === current ? 'step' : undefined} />
      ))}
    </Steps>
  );
}
