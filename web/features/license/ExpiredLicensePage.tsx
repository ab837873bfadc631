/** STUB — to be replaced by the pages work. */
import type { JSX } from 'react';
export function ExpiredLicensePage(): JSX.Element {
  return <div data-testid="stub-ExpiredLicensePage" />;
}
