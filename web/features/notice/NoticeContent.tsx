/**
 * A notice's rich text. The HTML is the server's sanitized copy (an allow-list of formatting tags
 * and safe links: server/modules/notice/html-sanitizer.ts), so it is shown as HTML.
 */
import type { JSX } from 'react';
import './notice.css';

export function NoticeContent({ html, testId }: { html: string; testId: string }): JSX.Element {
  return <div className="ec-notice-content" data-testid={testId} dangerouslySetInnerHTML={{ __html: html }} />;
}
