/**
 * The exception page inside the main layout: unknown paths land here ("the page you visited does
 * not exist") with a way back to the workbench; `?type=403` explains a page the
 * user may not open.
 */
import type { JSX } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearch } from 'wouter';
import Button from '@arco-design/web-react/es/Button';
import IconExclamationCircle from '@arco-design/web-react/icon/react-icon/IconExclamationCircle';
import IconLock from '@arco-design/web-react/icon/react-icon/IconLock';
import { navigateGuarded } from '../lib/navigation.ts';
import { consolePaths } from '../../server/contract/console-paths.ts';
import { StatusPanel } from './StatusPanel.tsx';

export function ExceptionPage(): JSX.Element {
  const { t } = useTranslation('exception');
  const forbidden = new URLSearchParams(useSearch()).get('type') === '403';
  return (
    <StatusPanel
      testId="exception"
      icon={forbidden ? <IconLock /> : <IconExclamationCircle />}
      title={forbidden ? t('forbidden') : t('notFound')}
      actions={
        <Button type="primary" data-testid="exception-back" onClick={() => void navigateGuarded(consolePaths.workbench)}>
          {t('backHome')}
        </Button>
      }
    />
  );
}
