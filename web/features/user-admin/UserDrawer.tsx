/**
 * Create or edit an account: username, real name, role, organizations, enabled, and on create the
 * password the user signs in with. Rules are the contract's (server/contract/user-admin.ts), texts
 * the server's for what only it can check (a taken username, the last super administrator).
 */
import type { JSX } from 'react';
import Form from '@arco-design/web-react/es/Form';
import Input from '@arco-design/web-react/es/Input';
import Message from '@arco-design/web-react/es/Message';
import Switch from '@arco-design/web-react/es/Switch';
import { useTranslation } from 'react-i18next';
import type { ManagedUser } from '../../../server/contract/user-admin.ts';
import { roles, type Role } from '../../../server/contract/user.ts';
import { REAL_NAME_MAX, USERNAME_PATTERN } from '../../../server/contract/validation.ts';
import { EnumSelect } from '../../components/EnumSelect.tsx';
import { FormDrawer } from '../../components/FormDrawer.tsx';
import { requiredRule } from '../../lib/form-rules.ts';
import { newPasswordRules } from '../auth/passwordRules.ts';
import { OrganizationsSelect } from './OrganizationsSelect.tsx';
import { createUser, updateUser } from './userAdminApi.ts';

interface UserValues {
  username: string;
  realName: string;
  role: Role;
  organizationIds: string[];
  enabled: boolean;
  password: string;
}

const fields = ['username', 'realName', 'role', 'organizationIds', 'enabled', 'password'] as const;
const usernamePattern = new RegExp(USERNAME_PATTERN);

function valuesOf(user: ManagedUser | null): UserValues {
  return user
    ? { username: user.username, realName: user.realName, role: user.role, organizationIds: user.organizationIds, enabled: user.enabled, password: '' }
    : { username: '', realName: '', role: 'CUSTOMER_USER', organizationIds: [], enabled: true, password: '' };
}

export interface UserDrawerProps {
  /** undefined: closed; null: create; a user: edit them. */
  editing: ManagedUser | null | undefined;
  onClose: () => void;
  onSaved: () => void;
}

export function UserDrawer({ editing, onClose, onSaved }: UserDrawerProps): JSX.Element {
  const { t } = useTranslation(['userAdmin', 'auth', 'errors']);

  const submit = async (values: UserValues): Promise<void> => {
    const body = {
      username: values.username.trim(),
      realName: values.realName.trim(),
      role: values.role,
      organizationIds: values.organizationIds ?? [],
      enabled: values.enabled,
    };
    if (editing) await updateUser({ id: editing.id, ...body });
    else await createUser({ ...body, password: values.password });
    Message.success(editing ? t('saved') : t('created'));
    onSaved();
  };

  return (
    <FormDrawer<UserValues>
      testId="user-drawer"
      visible={editing !== undefined}
      mode={editing ? 'edit' : 'create'}
      title={editing ? t('editTitle') : t('createTitle')}
      initialValues={valuesOf(editing ?? null)}
      fields={fields}
      onSubmit={submit}
      onClose={onClose}
    >
      <Form.Item
        field="username"
        label={t('username')}
        required
        rules={[requiredRule(t('usernameRule')), { match: usernamePattern, message: t('usernameRule') }]}
      >
        <Input placeholder={t('usernamePlaceholder')} autoComplete="off" data-testid="user-form-username" />
      </Form.Item>
      <Form.Item field="realName" label={t('realName')} required rules={[requiredRule(t('realNameRule')), { maxLength: REAL_NAME_MAX, message: t('realNameRule') }]}>
        <Input placeholder={t('realNamePlaceholder')} maxLength={{ length: REAL_NAME_MAX, errorOnly: true }} showWordLimit data-testid="user-form-realName" />
      </Form.Item>
      <Form.Item field="role" label={t('roleLabel')} required extra={t('roleHint')}>
        <EnumSelect ns="userAdmin" group="role" values={roles} testId="user-form-role" />
      </Form.Item>
      <Form.Item field="organizationIds" label={t('organizations')} extra={t('organizationsHint')}>
        <OrganizationsSelect placeholder={t('organizationsPlaceholder')} testId="user-form-organizations" ariaLabel={t('organizations')} />
      </Form.Item>
      <Form.Item field="enabled" label={t('enabled')} triggerPropName="checked" extra={t('enabledHint')}>
        <Switch aria-label={t('enabled')} data-testid="user-form-enabled" />
      </Form.Item>
      {!editing && (
        <Form.Item
          field="password"
          label={t('password')}
          required
          extra={t('passwordHint')}
          rules={newPasswordRules({ empty: t('auth:password.empty'), rule: t('errors:password.policy') })}
        >
          <Input.Password placeholder={t('passwordPlaceholder')} autoComplete="new-password" data-testid="user-form-password" />
        </Form.Item>
      )}
    </FormDrawer>
  );
}
