/**
 * Arco's Progress with an accessible name. Arco (2.66) puts role=progressbar on an inner element
 * and passes no aria props to it, so a progress bar is nameless (axe: aria-progressbar-name). This
 * names that element after each render, by the id of the visible label next to it.
 */
import { useLayoutEffect, useRef, type JSX } from 'react';
import Progress from '@arco-design/web-react/es/Progress';
import type { ProgressProps } from '@arco-design/web-react/es/Progress/interface';

export interface LabelledProgressProps extends ProgressProps {
  /** The id of the element whose text names the bar. */
  labelledBy: string;
}

export function LabelledProgress({ labelledBy, ...props }: LabelledProgressProps): JSX.Element {
  const ref = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const bar = ref.current?.querySelector('[role="progressbar"]');
    if (bar && bar.getAttribute('aria-labelledby') !== labelledBy) bar.setAttribute('aria-labelledby', labelledBy);
  });
  return (
    // display: contents keeps the bar where the caller laid it out.
    <div ref={ref} style={{ display: 'contents' }}>
      <Progress {...props} />
    </div>
  );
}
