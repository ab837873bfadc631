/**
 * How a password is really reset on this gateway: there is no e-mail reset; an operator with
 * shell access runs the `reset-password` sub-command, which prints a one-time password.
 */
import type { JSX } from 'react';
import Button from '@arco-design/web-react/es/Button';
import IconLeft from '@arco-design/web-react/icon/react-icon/IconLeft';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'wouter';
import { consolePaths } from '../../../server/contract/console-paths.ts';
import { AuthFrame } from './AuthFrame.tsx';
import './auth-pages.css';

export function ForgotPasswordPage(): JSX.Element {
  const { t } = useTranslation('auth');
  const [, navigate] = useLocation();
  const command = `edge-console reset-password --username ${t('forgot.usernameArg')} [--data-dir DIR]`;
  return (
    <AuthFrame title={t('forgot.title')} width={480} testId="forgot-page">
      <p className="ec-forgot-intro">{t('forgot.intro')}</p>
      <ol className="ec-forgot-steps">
        <li>
          {t('forgot.step1')}
          <code className="ec-command" data-testid="forgot-command">
            {command}
          </code>
        </li>
        <li>{t('forgot.step2')}</li>
        <li>{t('forgot.step3')}</li>
      </ol>
      <Button long size="large" icon={<IconLeft />} onClick={() => navigate(consolePaths.login)} data-testid="forgot-back">
        {t('forgot.back')}
      </Button>
    </AuthFrame>
  );
}
