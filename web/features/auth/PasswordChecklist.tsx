/** Live list of the password policy's criteria under a new-password field. */
import type { JSX } from 'react';
import IconCheckCircleFill from '@arco-design/web-react/icon/react-icon/IconCheckCircleFill';
import IconMinusCircle from '@arco-design/web-react/icon/react-icon/IconMinusCircle';
import { useTranslation } from 'react-i18next';
import { passwordCheckOrder, passwordChecks } from './passwordRules.ts';
import './auth-pages.css';

export function PasswordChecklist({ value }: { value: string | undefined }): JSX.Element {
  const { t } = useTranslation('auth');
  const checks = passwordChecks(value ?? '');
  return (
    <ul className="ec-password-checks" aria-live="polite">
      {passwordCheckOrder.map((name) => (
        <li key={name} className={checks[name] ? 'is-met' : undefined}>
          {checks[name] ? <IconCheckCircleFill /> : <IconMinusCircle />}
          {t(`password.checks.${name}`)}
        </li>
      ))}
    </ul>
  );
}
