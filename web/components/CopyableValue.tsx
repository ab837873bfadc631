/**
 * A value with a copy button (device tokens and client IDs, the gateway's serial number in the
 * wizard). Its texts are the common namespace's, which every page has loaded.
 */
import type { JSX } from 'react';
import Button from '@arco-design/web-react/es/Button';
import Message from '@arco-design/web-react/es/Message';
import IconCopy from '@arco-design/web-react/icon/react-icon/IconCopy';
import { useTranslation } from 'react-i18next';
import { copyText } from '../lib/clipboard.ts';
import './CopyableValue.css';

export function CopyableValue({ value, testId }: { value: string; testId: string }): JSX.Element {
  const { t } = useTranslation('common');
  const copy = async (): Promise<void> => {
    if (await copyText(value)) Message.success(t('copied'));
    else Message.warning(t('copyFailed'));
  };
  return (
    <span className="ec-copyable">
      <code className="ec-copyable__value" data-testid={testId}>
        {value}
      </code>
      <Button type="text" size="mini" icon={<IconCopy />} aria-label={t('copy')} title={t('copy')} onClick={() => void copy()} data-testid={`${testId}-copy`} />
    </span>
  );
}
