/**
 * System configuration → factory reset: the caller's password again, RESET typed out and whether
 * the licence stays; confirmed once more, then the wait screen takes over (FactoryResetWait.tsx).
 */
import { useState, type JSX } from 'react';
import Alert from '@arco-design/web-react/es/Alert';
import Button from '@arco-design/web-react/es/Button';
import Card from '@arco-design/web-react/es/Card';
import Checkbox from '@arco-design/web-react/es/Checkbox';
import Form from '@arco-design/web-react/es/Form';
import Input from '@arco-design/web-react/es/Input';
import Modal from '@arco-design/web-react/es/Modal';
import { useTranslation } from 'react-i18next';
import { RESET_CONFIRM_WORD, type FactoryResetBody } from '../../../server/contract/system.ts';
import { FormError } from '../../components/FormError.tsx';
import { errorMessage, serverFieldErrors } from '../../lib/error-text.ts';
import { requestFactoryReset } from './systemApi.ts';

export function FactoryResetCard({ onAccepted }: { onAccepted: () => void }): JSX.Element {
  const { t } = useTranslation('system');
  const [form] = Form.useForm<FactoryResetBody>();
  const [sending, setSending] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  const send = async (values: FactoryResetBody): Promise<void> => {
    setSending(true);
    setFailure(null);
    try {
      // The wait screen's code is fetched now: once the reset is accepted the gateway restarts and
      // serves nothing until it is back.
      await import('./FactoryResetWait.tsx');
      await requestFactoryReset({ password: values.password, confirm: values.confirm, keepLicense: Boolean(values.keepLicense) });
      onAccepted();
    } catch (err) {
      const mapped = serverFieldErrors(err, values, ['password', 'confirm'] as const);
      if (mapped) form.setFields(mapped);
      else setFailure(errorMessage(err));
    } finally {
      setSending(false);
    }
  };

  const confirm = (values: FactoryResetBody): void => {
    Modal.confirm({
      title: t('reset.confirmTitle'),
      content: t('reset.confirmContent'),
      okText: t('reset.ok'),
      cancelText: t('reset.cancel'),
      okButtonProps: { status: 'danger', 'data-testid': 'reset-confirm-ok' } as Record<string, unknown>,
      onOk: () => send(values),
    });
  };

  return (
    <Card title={<h2 className="ec-system-config__title">{t('reset.title')}</h2>} bordered={false}>
      <Alert type="warning" content={t('reset.intro')} className="ec-system-config__intro" />
      <Form<FactoryResetBody> form={form} layout="vertical" disabled={sending} onSubmit={confirm} initialValues={{ keepLicense: true }} style={{ maxWidth: 480 }}>
        <Form.Item field="password" label={t('reset.password')} rules={[{ required: true }]}>
          <Input.Password autoComplete="current-password" data-testid="reset-password" />
        </Form.Item>
        <Form.Item
          field="confirm"
          label={t('reset.confirm')}
          extra={t('reset.confirmHint')}
          rules={[{ required: true }, { validator: (value: string | undefined, cb) => cb(value === RESET_CONFIRM_WORD ? undefined : t('reset.confirmHint')) }]}
        >
          <Input placeholder={RESET_CONFIRM_WORD} autoComplete="off" data-testid="reset-confirm" />
        </Form.Item>
        <Form.Item field="keepLicense" triggerPropName="checked" extra={t('reset.keepLicenseHint')}>
          <Checkbox data-testid="reset-keep-license">{t('reset.keepLicense')}</Checkbox>
        </Form.Item>
        <FormError message={failure} testId="reset-error" />
        <Button type="primary" status="danger" htmlType="submit" loading={sending} data-testid="reset-submit">
          {t('reset.submit')}
        </Button>
      </Form>
    </Card>
  );
}
