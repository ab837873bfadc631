/**
 * Change password: current password required, new password under the policy,
 * confirmation equal. Success ends every session on the server, so the console resets its own and
 * shows Login.
 */
import { useState, type JSX } from 'react';
import Alert from '@arco-design/web-react/es/Alert';
import Button from '@arco-design/web-react/es/Button';
import Form from '@arco-design/web-react/es/Form';
import Input from '@arco-design/web-react/es/Input';
import Message from '@arco-design/web-react/es/Message';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'wouter';
import { GuardedModal } from '../../components/GuardedModal.tsx';
import { errorMessage, serverFieldErrors } from '../../lib/error-text.ts';
import { consolePaths } from '../../../server/contract/console-paths.ts';
import { sessionActions, useSession } from '../../stores/session.ts';
import { NewPasswordFields } from '../auth/NewPasswordFields.tsx';
import { signOut } from '../auth/sessionApi.ts';
import { changePassword } from './profileApi.ts';
import './profile.css';

export interface ChangePasswordModalProps {
  visible: boolean;
  onClose: () => void;
  /**
   * After an administrator's reset: the dialog cannot be closed, says why, and offers signing out
   * in place of Cancel (web/layout/MustChangePassword.tsx).
   */
  forced?: boolean;
}

interface PasswordValues {
  password: string;
  resetPassword: string;
  confirm: string;
}

const passwordFields = ['password', 'resetPassword'] as const;

export function ChangePasswordModal({ visible, onClose, forced = false }: ChangePasswordModalProps): JSX.Element | null {
  const { t } = useTranslation('user');
  return (
    <GuardedModal visible={visible} title={t('password.title')} width={480} onClose={onClose} closable={!forced}>
      {({ setDirty, requestClose, close }) => <ChangePasswordForm onDirty={setDirty} onCancel={requestClose} onChanged={close} forced={forced} />}
    </GuardedModal>
  );
}

interface ChangePasswordFormProps {
  onDirty: (dirty: boolean) => void;
  onCancel: () => void;
  onChanged: () => void;
  forced: boolean;
}

function ChangePasswordForm({ onDirty, onCancel, onChanged, forced }: ChangePasswordFormProps): JSX.Element {
  const { t } = useTranslation(['user', 'common']);
  const [, navigate] = useLocation();
  const user = useSession((s) => s.user);
  const userId = user?.userId;
  const [form] = Form.useForm<PasswordValues>();
  const [saving, setSaving] = useState(false);

  const signOutToLogin = async (): Promise<void> => {
    await signOut();
    navigate(consolePaths.login, { replace: true });
  };

  const submit = async (values: PasswordValues): Promise<void> => {
    if (!userId) return;
    setSaving(true);
    try {
      await changePassword({ userId, password: values.password, resetPassword: values.resetPassword });
      Message.success(t('password.success'));
      onChanged();
      sessionActions.reset();
      navigate(`${consolePaths.login}?username=${encodeURIComponent(user?.username ?? '')}`, { replace: true });
    } catch (err) {
      setSaving(false);
      const fieldErrors = serverFieldErrors(err, values, passwordFields);
      if (fieldErrors) form.setFields(fieldErrors);
      else Message.error(errorMessage(err));
    }
  };

  return (
    <Form<PasswordValues>
      form={form}
      layout="vertical"
      onSubmit={(values) => void submit(values)}
      disabled={saving}
      onValuesChange={(_, all) => onDirty(Object.values(all).some(Boolean))}
    >
      {forced ? (
        <Alert className="ec-profile-hint" type="warning" content={t('password.forcedHint')} data-testid="pwd-forced-hint" />
      ) : (
        <Alert className="ec-profile-hint" type="info" content={t('password.hint')} />
      )}
      <Form.Item field="password" label={t('password.current')} rules={[{ required: true, message: t('password.currentRequired') }]}>
        <Input.Password placeholder={t('password.currentPlaceholder')} autoComplete="current-password" data-testid="pwd-current" />
      </Form.Item>
      <NewPasswordFields
        form={form}
        field="resetPassword"
        confirmField="confirm"
        password={{ label: t('password.new'), placeholder: t('password.newPlaceholder'), testId: 'pwd-new' }}
        confirm={{ label: t('password.confirm'), placeholder: t('password.confirmPlaceholder'), testId: 'pwd-confirm' }}
      />
      <div className="ec-modal-actions">
        {forced ? (
          <Button onClick={() => void signOutToLogin()} disabled={saving} data-testid="pwd-sign-out">
            {t('password.signOut')}
          </Button>
        ) : (
          <Button onClick={onCancel} disabled={saving} data-testid="pwd-cancel">
            {t('common:cancel')}
          </Button>
        )}
        <Button type="primary" htmlType="submit" loading={saving} disabled={!userId} data-testid="pwd-submit">
          {t('password.submit')}
        </Button>
      </div>
    </Form>
  );
}
