/**
 * Wizard step 3: the administrator account (password policy of spec section 5) and the platform
 * name. Success ends first boot: the user signs in with the new account.
 */
import { useState, type JSX } from 'react';
import { Alert, Button, Form, Input, Message } from '@arco-design/web-react';
import { IconLock, IconUser } from '@arco-design/web-react/icon';
import { useTranslation } from 'react-i18next';
import { ErrorCode } from '../../../server/contract/errors.ts';
import { NAME_MAX, USERNAME_PATTERN } from '../../../server/contract/validation.ts';
import { ApiError } from '../../lib/api-client.ts';
import { errorMessage } from '../../lib/error-text.ts';
import { PasswordChecklist } from '../auth/PasswordChecklist.tsx';
import { confirmPasswordRules, newPasswordRules } from '../auth/passwordRules.ts';
import { createAdmin } from './guideApi.ts';
import { isSetupCodeError, SetupCodeField, SETUP_CODE_FIELD } from './SetupCodeField.tsx';

interface AdminValues {
  setupCode?: string;
  username: string;
  password: string;
  confirm: string;
  platformName?: string;
}

export interface AdminStepProps {
  setupCode: string;
  needCode: boolean;
  onCodeAccepted: (code: string) => void;
  onCodeRejected: () => void;
  onBack: () => void;
  /** The administrator exists (created now, or by someone else meanwhile). */
  onCreated: (username: string) => void;
}

export function AdminStep(props: AdminStepProps): JSX.Element {
  const { t } = useTranslation(['guide', 'auth', 'errors']);
  const [form] = Form.useForm<AdminValues>();
  const password = Form.useWatch('password', form) as string | undefined;
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const submit = async (values: AdminValues): Promise<void> => {
    const code = (values.setupCode ?? props.setupCode).trim();
    const username = values.username.trim();
    setSaving(true);
    setError(null);
    try {
      await createAdmin({ username, password: values.password, platformName: values.platformName?.trim() || undefined }, code);
      props.onCodeAccepted(code);
      Message.success(t('admin.created'));
      props.onCreated(username);
    } catch (err) {
      setSaving(false);
      if (err instanceof ApiError && err.status === 409) {
        Message.warning(err.message);
        props.onCreated(username);
        return;
      }
      if (isSetupCodeError(err)) props.onCodeRejected();
      if (isSetupCodeError(err) && props.needCode) {
        form.setFields({ [SETUP_CODE_FIELD]: { value: values.setupCode, error: { message: err.message } } });
      } else if (err instanceof ApiError && err.code === ErrorCode.PASSWORD_POLICY) {
        form.setFields({ password: { value: values.password, error: { message: err.message } } });
      } else {
        setError(errorMessage(err));
      }
    }
  };

  return (
    <div className="ec-guide-step" data-testid="guide-step-admin">
      <p className="ec-guide-intro">{t('admin.intro')}</p>
      <Form<AdminValues>
        form={form}
        layout="vertical"
        initialValues={{ setupCode: props.setupCode }}
        onSubmit={submit}
        disabled={saving}
        onValuesChange={(changed) => {
          // A new password re-checks a confirmation typed earlier.
          if ('password' in changed && form.getFieldValue('confirm')) void form.validate(['confirm']).catch(() => undefined);
        }}
      >
        {props.needCode ? <SetupCodeField /> : null}
        <Form.Item
          field="username"
          label={t('admin.username')}
          rules={[
            { required: true, message: t('admin.usernameRequired') },
            { match: new RegExp(USERNAME_PATTERN), message: t('admin.usernameInvalid') },
          ]}
        >
          <Input
            prefix={<IconUser />}
            placeholder={t('admin.usernamePlaceholder')}
            autoComplete="username"
            data-testid="guide-admin-username"
          />
        </Form.Item>
        <Form.Item
          field="password"
          label={t('admin.password')}
          required
          rules={newPasswordRules({ empty: t('auth:password.empty'), rule: t('errors:password.policy') })}
          extra={<PasswordChecklist value={password} />}
        >
          <Input.Password
            prefix={<IconLock />}
            placeholder={t('admin.passwordPlaceholder')}
            autoComplete="new-password"
            data-testid="guide-admin-password"
          />
        </Form.Item>
        <Form.Item
          field="confirm"
          label={t('admin.confirm')}
          required
          rules={confirmPasswordRules(() => form.getFieldValue('password') as string | undefined, {
            empty: t('auth:password.confirmEmpty'),
            differ: t('errors:password.mismatch'),
          })}
        >
          <Input.Password
            prefix={<IconLock />}
            placeholder={t('admin.confirmPlaceholder')}
            autoComplete="new-password"
            data-testid="guide-admin-confirm"
          />
        </Form.Item>
        <Form.Item
          field="platformName"
          label={t('admin.platformName')}
          rules={[{ maxLength: NAME_MAX, message: t('admin.platformNameTooLong', { max: NAME_MAX }) }]}
        >
          <Input placeholder={t('admin.platformNamePlaceholder')} autoComplete="off" data-testid="guide-platform-name" />
        </Form.Item>
        {error ? (
          <div className="ec-guide-alert" role="alert" data-testid="guide-admin-error">
            <Alert type="error" content={error} />
          </div>
        ) : null}
        <div className="ec-guide-actions">
          <Button onClick={props.onBack} disabled={saving} data-testid="guide-admin-back">
            {t('previous')}
          </Button>
          <span className="ec-guide-actions__spacer" />
          <Button type="primary" htmlType="submit" loading={saving} data-testid="guide-admin-submit">
            {t('admin.submit')}
          </Button>
        </div>
      </Form>
    </div>
  );
}
