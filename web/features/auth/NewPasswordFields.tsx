/**
 * A new password with its live policy checklist, and its confirmation: the pair the activation
 * wizard (administrator) and the change-password form both ask for, with the same rules and texts.
 */
import { useEffect, type JSX, type ReactNode } from 'react';
import Form from '@arco-design/web-react/es/Form';
import Input from '@arco-design/web-react/es/Input';
import type { FormInstance } from '@arco-design/web-react/es/Form/interface';
import IconLock from '@arco-design/web-react/icon/react-icon/IconLock';
import { useTranslation } from 'react-i18next';
import { PasswordChecklist } from './PasswordChecklist.tsx';
import { confirmPasswordRules, newPasswordRules } from './passwordRules.ts';

interface FieldText {
  label: ReactNode;
  placeholder: string;
  testId: string;
}

export interface NewPasswordFieldsProps<T> {
  form: FormInstance<T>;
  field: keyof T & string;
  confirmField: keyof T & string;
  password: FieldText;
  confirm: FieldText;
  /** Lock icons inside the inputs (the wizard's style). */
  icons?: boolean;
}

export function NewPasswordFields<T>(props: NewPasswordFieldsProps<T>): JSX.Element {
  const { t } = useTranslation(['auth', 'errors']);
  const { form, field, confirmField } = props;
  const value = Form.useWatch(field, form) as string | undefined;

  useEffect(() => {
    // A changed password re-checks a confirmation typed earlier.
    if (form.getFieldValue(confirmField)) void form.validate([confirmField]).catch(() => undefined);
  }, [value, form, confirmField]);

  const icon = props.icons ? <IconLock /> : undefined;
  return (
    <>
      <Form.Item
        field={field}
        label={props.password.label}
        required
        rules={newPasswordRules({ empty: t('password.empty'), rule: t('errors:password.policy') })}
        extra={<PasswordChecklist value={value} />}
      >
        <Input.Password prefix={icon} placeholder={props.password.placeholder} autoComplete="new-password" data-testid={props.password.testId} />
      </Form.Item>
      <Form.Item
        field={confirmField}
        label={props.confirm.label}
        required
        rules={confirmPasswordRules(() => form.getFieldValue(field) as string | undefined, {
          empty: t('password.confirmEmpty'),
          differ: t('errors:password.mismatch'),
        })}
      >
        <Input.Password prefix={icon} placeholder={props.confirm.placeholder} autoComplete="new-password" data-testid={props.confirm.testId} />
      </Form.Item>
    </>
  );
}
