/**
 * Edit user info: username and creation time read-only; real name required
 * (≤ 32), mainland mobile checked on blur, optional e-mail (≤ 32), avatar upload. Closing with
 * unsaved changes asks first; server field errors land on their fields.
 */
import { useEffect, useState, type JSX } from 'react';
import Button from '@arco-design/web-react/es/Button';
import Form from '@arco-design/web-react/es/Form';
import Input from '@arco-design/web-react/es/Input';
import Message from '@arco-design/web-react/es/Message';
import Spin from '@arco-design/web-react/es/Spin';
import { useTranslation } from 'react-i18next';
import type { UserInfo } from '../../../server/contract/user.ts';
import { EMAIL_MAX, EMAIL_PATTERN, PHONE_PATTERN, REAL_NAME_MAX } from '../../../server/contract/validation.ts';
import { GuardedModal } from '../../components/GuardedModal.tsx';
import { formatDateTime } from '../../lib/date-format.ts';
import { errorMessage, serverFieldErrors } from '../../lib/error-text.ts';
import { sessionActions, useSession } from '../../stores/session.ts';
import { loadUser } from '../auth/sessionApi.ts';
import { AvatarField } from './AvatarField.tsx';
import { updateProfile } from './profileApi.ts';
import './profile.css';

export interface ProfileModalProps {
  visible: boolean;
  onClose: () => void;
}

interface ProfileValues {
  realName: string;
  phoneNumber: string;
  email: string;
  avatar: string | null;
}

const profileFields = ['realName', 'phoneNumber', 'email', 'avatar'] as const;
const phone = new RegExp(PHONE_PATTERN);
const email = new RegExp(EMAIL_PATTERN);

function valuesOf(user: UserInfo): ProfileValues {
  return { realName: user.realName, phoneNumber: user.phoneNumber ?? '', email: user.email ?? '', avatar: user.avatar };
}

function differs(a: ProfileValues, b: Partial<ProfileValues>): boolean {
  return profileFields.some((f) => (a[f] ?? '').trim() !== (b[f] ?? '').trim());
}

export function ProfileModal({ visible, onClose }: ProfileModalProps): JSX.Element | null {
  const { t } = useTranslation('user');
  const user = useSession((s) => s.user);

  useEffect(() => {
    if (visible && !user) loadUser().catch(() => undefined);
  }, [visible, user]);

  return (
    <GuardedModal visible={visible} title={t('info.title')} onClose={onClose}>
      {({ setDirty, requestClose, close }) =>
        user ? (
          <ProfileForm user={user} onDirty={setDirty} onCancel={requestClose} onSaved={close} />
        ) : (
          <Spin style={{ display: 'block', margin: '32px auto' }} />
        )
      }
    </GuardedModal>
  );
}

interface ProfileFormProps {
  user: UserInfo;
  onDirty: (dirty: boolean) => void;
  onCancel: () => void;
  onSaved: () => void;
}

function ProfileForm({ user, onDirty, onCancel, onSaved }: ProfileFormProps): JSX.Element {
  const { t } = useTranslation(['user', 'common']);
  const [form] = Form.useForm<ProfileValues>();
  const [saving, setSaving] = useState(false);
  const initial = valuesOf(user);

  const submit = async (values: ProfileValues): Promise<void> => {
    setSaving(true);
    try {
      const updated = await updateProfile({
        id: user.userId,
        realName: values.realName.trim(),
        phoneNumber: values.phoneNumber?.trim() ?? '',
        email: values.email?.trim() ?? '',
        avatar: values.avatar ?? null,
      });
      sessionActions.setUser(updated);
      Message.success(t('info.editSuccess'));
      onSaved();
    } catch (err) {
      setSaving(false);
      const fieldErrors = serverFieldErrors(err, values, profileFields);
      if (fieldErrors) form.setFields(fieldErrors);
      else Message.error(errorMessage(err));
    }
  };

  return (
    <Form<ProfileValues>
      form={form}
      layout="vertical"
      initialValues={initial}
      onSubmit={(values) => void submit(values)}
      disabled={saving}
      onValuesChange={(_, all) => onDirty(differs(initial, all))}
    >
      <div className="ec-profile-row">
        <Form.Item label={t('info.username')}>
          {/* A Form.Item without a field has no label target: the inputs are named directly. */}
          <Input value={user.username} disabled aria-label={t('info.username')} data-testid="profile-username" />
        </Form.Item>
        <Form.Item label={t('info.createTime')}>
          <Input value={formatDateTime(user.createTime)} disabled aria-label={t('info.createTime')} data-testid="profile-create-time" />
        </Form.Item>
      </div>
      <Form.Item field="avatar" label={t('info.avatar')}>
        <AvatarField />
      </Form.Item>
      <Form.Item
        field="realName"
        label={t('info.realName')}
        rules={[
          { required: true, message: t('info.realNameRequired') },
          { validator: (v: string | undefined, cb) => cb(v && !v.trim() ? t('info.realNameRequired') : undefined) },
          { maxLength: REAL_NAME_MAX, message: t('info.realNameTooLong', { max: REAL_NAME_MAX }) },
        ]}
      >
        <Input placeholder={t('info.realNamePlaceholder')} data-testid="profile-realname" />
      </Form.Item>
      <Form.Item
        field="phoneNumber"
        label={t('info.phone')}
        validateTrigger="onBlur"
        rules={[{ validator: (v: string | undefined, cb) => cb(v?.trim() && !phone.test(v.trim()) ? t('info.phoneInvalid') : undefined) }]}
      >
        <Input placeholder={t('info.phonePlaceholder')} inputMode="tel" autoComplete="tel" data-testid="profile-phone" />
      </Form.Item>
      <Form.Item
        field="email"
        label={t('info.email')}
        validateTrigger="onBlur"
        rules={[
          { validator: (v: string | undefined, cb) => cb(v?.trim() && !email.test(v.trim()) ? t('info.emailInvalid') : undefined) },
          { maxLength: EMAIL_MAX, message: t('info.emailTooLong', { max: EMAIL_MAX }) },
        ]}
      >
        <Input placeholder={t('info.emailPlaceholder')} inputMode="email" autoComplete="email" data-testid="profile-email" />
      </Form.Item>
      <div className="ec-modal-actions">
        <Button onClick={onCancel} disabled={saving} data-testid="profile-cancel">
          {t('common:cancel')}
        </Button>
        <Button type="primary" htmlType="submit" loading={saving} data-testid="profile-save">
          {t('common:save')}
        </Button>
      </div>
    </Form>
  );
}
