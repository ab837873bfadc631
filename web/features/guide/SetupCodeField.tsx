/**
 * The setup code input of the wizard's forms. Nobody can sign in before the administrator
 * exists, so the code printed at first start authorizes each provisioning call.
 */
import type { JSX } from 'react';
import Form from '@arco-design/web-react/es/Form';
import Input from '@arco-design/web-react/es/Input';
import IconSafe from '@arco-design/web-react/icon/react-icon/IconSafe';
import { useTranslation } from 'react-i18next';
import type { ApiError } from '../../lib/api-client.ts';
import { setupCodeErrorKeys } from './guideApi.ts';

export const SETUP_CODE_FIELD = 'setupCode';

export function SetupCodeField(): JSX.Element {
  const { t } = useTranslation('guide');
  return (
    <Form.Item
      field={SETUP_CODE_FIELD}
      label={t('license.setupCode')}
      extra={t('license.setupCodeHint')}
      rules={[
        { required: true, message: t('license.setupCodeRequired') },
        { validator: (v: string | undefined, cb) => cb(v && !v.trim() ? t('license.setupCodeRequired') : undefined) },
      ]}
    >
      <Input
        prefix={<IconSafe />}
        placeholder={t('license.setupCodePlaceholder')}
        autoComplete="off"
        spellCheck={false}
        data-testid="guide-setup-code"
      />
    </Form.Item>
  );
}

/** True when the server refused the call because of the setup code. */
export function isSetupCodeError(err: unknown): err is ApiError {
  const key = (err as ApiError | null)?.key;
  return typeof key === 'string' && setupCodeErrorKeys.includes(key);
}
