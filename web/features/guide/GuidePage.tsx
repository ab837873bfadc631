/** STUB — to be replaced by the pages work. */
import type { JSX } from 'react';
export function GuidePage(): JSX.Element {
  return <div data-testid="stub-GuidePage" />;
}
