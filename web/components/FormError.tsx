/** A form's failure shown inline above its buttons and announced to screen readers. */
import type { JSX } from 'react';
import Alert from '@arco-design/web-react/es/Alert';

export function FormError({ message, testId, className }: { message: string | null; testId: string; className?: string }): JSX.Element | null {
  if (!message) return null;
  return (
    <div className={className ?? 'ec-form-error'} role="alert" data-testid={testId} style={{ marginBottom: 16 }}>
      <Alert type="error" content={message} />
    </div>
  );
}
