/** STUB — to be replaced by the pages work. */
import type { JSX } from 'react';
export function ForgotPasswordPage(): JSX.Element {
  return <div data-testid="stub-ForgotPasswordPage" />;
}
