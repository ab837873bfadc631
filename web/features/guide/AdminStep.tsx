/**
 * Wizard step 3: the administrator account (with the password policy) and the platform
 * name. Success ends first boot: the user signs in with the new account.
 */
import { useState, type JSX } from 'react';
import Button from '@arco-design/web-react/es/Button';
import Form from '@arco-design/web-react/es/Form';
import Input from '@arco-design/web-react/es/Input';
import Message from '@arco-design/web-react/es/Message';
import IconUser from '@arco-design/web-react/icon/react-icon/IconUser';
import { useTranslation } from 'react-i18next';
import { ErrorCode } from '../../../server/contract/errors.ts';
import { NAME_MAX, USERNAME_PATTERN } from '../../../server/contract/validation.ts';
import { ApiError } from '../../lib/api-client.ts';
import { FormError } from '../../components/FormError.tsx';
import { errorMessage } from '../../lib/error-text.ts';
import { NewPasswordFields } from '../auth/NewPasswordFields.tsx';
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
  const { t } = useTranslation('guide');
  const [form] = Form.useForm<AdminValues>();
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
        onSubmit={(values) => void submit(values)}
        disabled={saving}
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
        <NewPasswordFields
          form={form}
          field="password"
          confirmField="confirm"
          icons
          password={{ label: t('admin.password'), placeholder: t('admin.passwordPlaceholder'), testId: 'guide-admin-password' }}
          confirm={{ label: t('admin.confirm'), placeholder: t('admin.confirmPlaceholder'), testId: 'guide-admin-confirm' }}
        />
        <Form.Item
          field="platformName"
          label={t('admin.platformName')}
          rules={[{ maxLength: NAME_MAX, message: t('admin.platformNameTooLong', { max: NAME_MAX }) }]}
        >
          <Input placeholder={t('admin.platformNamePlaceholder')} autoComplete="off" data-testid="guide-platform-name" />
        </Form.Item>
        <FormError message={error} testId="guide-admin-error" />
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
