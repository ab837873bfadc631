/**
 * Read-only code: the model TSL, topic payloads, command content and device answers. JSON text is
 * pretty-printed; anything else is shown as written.
 */
import type { JSX } from 'react';
import './CodeBlock.css';

/** JSON text indented two spaces; text that is not JSON unchanged. */
export function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

export interface CodeBlockProps {
  text: string;
  /** Lower height (table cells, dialogs with other content). */
  compact?: boolean;
  /** Break long lines (answers of devices) instead of scrolling sideways. */
  wrap?: boolean;
  testId?: string;
  label?: string;
}

export function CodeBlock({ text, compact = false, wrap = false, testId, label }: CodeBlockProps): JSX.Element {
  const className = ['ec-code', compact ? 'ec-code--compact' : '', wrap ? 'ec-code--wrap' : ''].filter(Boolean).join(' ');
  return (
    // Focusable: a long line scrolls sideways, and keyboard users must be able to scroll it too.
    <pre className={className} data-testid={testId} aria-label={label} tabIndex={0}>
      {text}
    </pre>
  );
}
