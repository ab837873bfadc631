/** An administrator sets another account's password; the account's sessions end and the user must change it at the next sign-in. */
import { useState, type JSX } from 'react';
import Alert from '@arco-design/web-react/es/Alert';
import Button from '@arco-design/web-react/es/Button';
import Form from '@arco-design/web-react/es/Form';
import Message from '@arco-design/web-react/es/Message';
import { useTranslation } from 'react-i18next';
import type { ManagedUser } from '../../../server/contract/user-admin.ts';
import { GuardedModal } from '../../components/GuardedModal.tsx';
import { errorMessage } from '../../lib/error-text.ts';
import { NewPasswordFields } from '../auth/NewPasswordFields.tsx';
import { resetUserPassword } from './userAdminApi.ts';

interface ResetValues {
  password: string;
  confirm: string;
}

export interface ResetPasswordModalProps {
  /** The account whose password is reset; null: closed. */
  user: ManagedUser | null;
  onClose: () => void;
}

export function ResetPasswordModal({ user, onClose }: ResetPasswordModalProps): JSX.Element {
  const { t } = useTranslation('userAdmin');
  return (
    <GuardedModal visible={user !== null} title={t('resetTitle', { name: user?.username ?? '' })} width={480} onClose={onClose}>
      {({ setDirty, requestClose, close }) => user && <ResetForm user={user} onDirty={setDirty} onCancel={requestClose} onDone={close} />}
    </GuardedModal>
  );
}

function ResetForm({ user, onDirty, onCancel, onDone }: { user: ManagedUser; onDirty: (dirty: boolean) => void; onCancel: () => void; onDone: () => void }): JSX.Element {
  const { t } = useTranslation(['userAdmin', 'common']);
  const [form] = Form.useForm<ResetValues>();
  const [saving, setSaving] = useState(false);

  const submit = async (values: ResetValues): Promise<void> => {
    setSaving(true);
    try {
      await resetUserPassword(user.id, values.password);
      Message.success(t('resetDone'));
      onDone();
    } catch (err) {
      setSaving(false);
      Message.error(errorMessage(err));
    }
  };

  return (
    <Form<ResetValues>
      form={form}
      layout="vertical"
      onSubmit={(values) => void submit(values)}
      disabled={saving}
      onValuesChange={(_, all) => onDirty(Object.values(all).some(Boolean))}
    >
      <Alert className="ec-profile-hint" type="info" content={t('resetHint')} />
      <NewPasswordFields
        form={form}
        field="password"
        confirmField="confirm"
        password={{ label: t('password'), placeholder: t('passwordPlaceholder'), testId: 'user-reset-password' }}
        confirm={{ label: t('confirmPassword'), placeholder: t('confirmPasswordPlaceholder'), testId: 'user-reset-confirm' }}
      />
      <div className="ec-modal-actions">
        <Button onClick={onCancel} disabled={saving} data-testid="user-reset-cancel">
          {t('common:cancel')}
        </Button>
        <Button type="primary" htmlType="submit" loading={saving} data-testid="user-reset-submit">
          {t('resetSubmit')}
        </Button>
      </div>
    </Form>
  );
}
