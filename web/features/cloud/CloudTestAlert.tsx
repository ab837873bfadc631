/** A connection test's answer in words: connected, refused with the broker's code, or not available here. */
import type { JSX } from 'react';
import Alert from '@arco-design/web-react/es/Alert';
import { useTranslation } from 'react-i18next';
import type { CloudTestOutcome } from './useCloudTest.ts';

export function CloudTestAlert({ outcome, testId }: { outcome: CloudTestOutcome | null; testId: string }): JSX.Element | null {
  const { t } = useTranslation('guide');
  if (!outcome) return null;
  let type: 'success' | 'error' | 'warning';
  let content: string;
  if ('unavailable' in outcome) {
    type = 'warning';
    content = t('cloud.testUnavailable');
  } else if ('failure' in outcome) {
    type = 'error';
    content = outcome.failure;
  } else if (outcome.ok) {
    type = 'success';
    content = t('cloud.testOk', { message: outcome.message });
  } else {
    type = 'error';
    // A negative code: no CONNACK came at all, so there is no broker code to show.
    content = outcome.code < 0 ? t('cloud.testUnreachable', { message: outcome.message }) : t('cloud.testFailed', { code: outcome.code, message: outcome.message });
  }
  return (
    <div role={type === 'success' ? 'status' : 'alert'} data-testid={testId} data-result={type} className="ec-cloud-test">
      <Alert type={type} content={content} />
    </div>
  );
}
