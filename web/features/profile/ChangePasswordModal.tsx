/**
 * Change password (spec sections 4, 5): current password required, new password under the policy,
 * confirmation equal. Success ends every session on the server, so the console resets its own and
 * shows Login.
 */
import { useState, type JSX } from 'react';
import { Alert, Button, Form, Input, Message, Modal } from '@arco-design/web-react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'wouter';
import { ApiError } from '../../lib/api-client.ts';
import { errorKeyText, errorMessage } from '../../lib/error-text.ts';
import { fieldErrorKeys } from '../../lib/field-errors.ts';
import { confirmLeave, useLeaveGuard } from '../../lib/leave-guard.ts';
import { paths } from '../../lib/paths.ts';
import { sessionActions, useSession } from '../../stores/session.ts';
import { PasswordChecklist } from '../auth/PasswordChecklist.tsx';
import { confirmPasswordRules, newPasswordRules } from '../auth/passwordRules.ts';
import { changePassword } from './profileApi.ts';
import './profile.css';

export interface ChangePasswordModalProps {
  visible: boolean;
  onClose: () => void;
}

interface PasswordValues {
  password: string;
  resetPassword: string;
  confirm: string;
}

const passwordFields = ['password', 'resetPassword'] as const;

export function ChangePasswordModal({ visible, onClose }: ChangePasswordModalProps): JSX.Element | null {
  const { t } = useTranslation('profile');
  const [dirty, setDirty] = useState(false);
  useLeaveGuard(visible && dirty);

  const close = (): void => {
    setDirty(false);
    onClose();
  };
  const requestClose = async (): Promise<void> => {
    if (!dirty || (await confirmLeave())) close();
  };

  return (
    <Modal
      visible={visible}
      title={t('password.title')}
      onCancel={() => void requestClose()}
      footer={null}
      unmountOnExit
      maskClosable={false}
      style={{ width: 480, maxWidth: 'calc(100vw - 32px)' }}
    >
      <ChangePasswordForm onDirty={setDirty} onCancel={() => void requestClose()} onChanged={close} />
    </Modal>
  );
}

interface ChangePasswordFormProps {
  onDirty: (dirty: boolean) => void;
  onCancel: () => void;
  onChanged: () => void;
}

function ChangePasswordForm({ onDirty, onCancel, onChanged }: ChangePasswordFormProps): JSX.Element {
  const { t } = useTranslation(['profile', 'auth', 'errors', 'common']);
  const [, navigate] = useLocation();
  const user = useSession((s) => s.user);
  const userId = user?.userId;
  const [form] = Form.useForm<PasswordValues>();
  const newPassword = Form.useWatch('resetPassword', form) as string | undefined;
  const [saving, setSaving] = useState(false);

  const submit = async (values: PasswordValues): Promise<void> => {
    if (!userId) return;
    setSaving(true);
    try {
      await changePassword({ userId, password: values.password, resetPassword: values.resetPassword });
      Message.success(t('password.success'));
      onChanged();
      sessionActions.reset();
      navigate(`${paths.login}?username=${encodeURIComponent(user?.username ?? '')}`, { replace: true });
    } catch (err) {
      setSaving(false);
      const byField = fieldErrorKeys(err instanceof ApiError ? err.body?.details : undefined, passwordFields);
      const names = Object.keys(byField) as (typeof passwordFields)[number][];
      if (names.length === 0) {
        Message.error(errorMessage(err));
        return;
      }
      form.setFields(
        Object.fromEntries(names.map((name) => [name, { value: values[name], error: { message: errorKeyText(byField[name]!) } }])),
      );
    }
  };

  return (
    <Form<PasswordValues>
      form={form}
      layout="vertical"
      onSubmit={submit}
      disabled={saving}
      onValuesChange={(changed, all) => {
        onDirty(Object.values(all).some(Boolean));
        if ('resetPassword' in changed && form.getFieldValue('confirm')) void form.validate(['confirm']).catch(() => undefined);
      }}
    >
      <Alert className="ec-profile-hint" type="info" content={t('password.hint')} />
      <Form.Item field="password" label={t('password.current')} rules={[{ required: true, message: t('password.currentRequired') }]}>
        <Input.Password placeholder={t('password.currentPlaceholder')} autoComplete="current-password" data-testid="pwd-current" />
      </Form.Item>
      <Form.Item
        field="resetPassword"
        label={t('password.new')}
        required
        rules={newPasswordRules({ empty: t('auth:password.empty'), rule: t('errors:password.policy') })}
        extra={<PasswordChecklist value={newPassword} />}
      >
        <Input.Password placeholder={t('password.newPlaceholder')} autoComplete="new-password" data-testid="pwd-new" />
      </Form.Item>
      <Form.Item
        field="confirm"
        label={t('password.confirm')}
        required
        rules={confirmPasswordRules(() => form.getFieldValue('resetPassword') as string | undefined, {
          empty: t('auth:password.confirmEmpty'),
          differ: t('errors:password.mismatch'),
        })}
      >
        <Input.Password placeholder={t('password.confirmPlaceholder')} autoComplete="new-password" data-testid="pwd-confirm" />
      </Form.Item>
      <div className="ec-modal-actions">
        <Button onClick={onCancel} disabled={saving} data-testid="pwd-cancel">
          {t('common:cancel')}
        </Button>
        <Button type="primary" htmlType="submit" loading={saving} disabled={!userId} data-testid="pwd-submit">
          {t('password.submit')}
        </Button>
      </div>
    </Form>
  );
}
