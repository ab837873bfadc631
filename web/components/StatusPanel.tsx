/** A centred icon, headline, explanation and actions: the body of exception and "not built" pages. */
import type { JSX, ReactNode } from 'react';

export interface StatusPanelProps {
  icon: ReactNode;
  title: ReactNode;
  description?: ReactNode;
  actions?: ReactNode;
  testId?: string;
}

export function StatusPanel({ icon, title, description, actions, testId }: StatusPanelProps): JSX.Element {
  return (
    <section className="status-panel" data-testid={testId}>
      <div className="status-panel__icon" aria-hidden="true">
        {icon}
      </div>
      <h1 className="status-panel__title">{title}</h1>
      {description ? <p className="status-panel__description">{description}</p> : null}
      {actions ? <div className="status-panel__actions">{actions}</div> : null}
    </section>
  );
}
