/**
 * Wizard step 2: the cloud platform this gateway connects to (address, port, key, secret), or a
 * skip to run standalone. Rules are the contract's, so the form refuses what the server refuses.
 */
import { useEffect, useState, type JSX } from 'react';
import Alert from '@arco-design/web-react/es/Alert';
import Button from '@arco-design/web-react/es/Button';
import Form from '@arco-design/web-react/es/Form';
import Input from '@arco-design/web-react/es/Input';
import Message from '@arco-design/web-react/es/Message';
import { useTranslation } from 'react-i18next';
import type { CloudConfigView } from '../../../server/contract/cloud.ts';
import { FormError } from '../../components/FormError.tsx';
import { errorMessage } from '../../lib/error-text.ts';
import { isPlatformAddress, parsePort } from './cloudRules.ts';
import { loadCloudConfig, saveCloudConfig } from './guideApi.ts';
import { isSetupCodeError, SetupCodeField, SETUP_CODE_FIELD } from './SetupCodeField.tsx';

/** The contract's length limit of the key and the secret. */
const CREDENTIAL_MAX = 128;

interface CloudValues {
  setupCode?: string;
  platformAddress: string;
  platformPort: string;
  platformKey: string;
  platformSecret: string;
}

export interface CloudStepProps {
  setupCode: string;
  /** Show the setup code field (the code is not known in this tab, or was refused). */
  needCode: boolean;
  configured: boolean;
  onCodeAccepted: (code: string) => void;
  onCodeRejected: () => void;
  onDone: () => void;
  onSkip: () => void;
  onBack: () => void;
}

export function CloudStep(props: CloudStepProps): JSX.Element {
  const { t } = useTranslation(['guide', 'errors']);
  const [form] = Form.useForm<CloudValues>();
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [current, setCurrent] = useState<CloudConfigView>(null);

  useEffect(() => {
    if (!props.configured || !props.setupCode) return;
    // Prefill from what is stored; the secret is never returned and has to be entered again.
    loadCloudConfig(props.setupCode).then((view) => {
      setCurrent(view);
      if (view) {
        form.setFieldsValue({ platformAddress: view.platformAddress, platformPort: String(view.platformPort), platformKey: view.platformKey });
      }
    }, () => undefined);
  }, [props.configured, props.setupCode, form]);

  const submit = async (values: CloudValues): Promise<void> => {
    const code = (values.setupCode ?? props.setupCode).trim();
    setSaving(true);
    setError(null);
    try {
      await saveCloudConfig(
        {
          platformAddress: values.platformAddress.trim(),
          platformPort: parsePort(values.platformPort) ?? 0,
          platformKey: values.platformKey.trim(),
          platformSecret: values.platformSecret.trim(),
        },
        code,
      );
      props.onCodeAccepted(code);
      Message.success(t('cloud.saved'));
      props.onDone();
    } catch (err) {
      if (isSetupCodeError(err)) props.onCodeRejected();
      if (isSetupCodeError(err) && props.needCode) {
        form.setFields({ [SETUP_CODE_FIELD]: { value: values.setupCode, error: { message: err.message } } });
      } else {
        setError(errorMessage(err));
      }
    } finally {
      setSaving(false);
    }
  };

  const required = (message: string) => ({ required: true, message });
  const notBlank = (message: string) => ({
    validator: (v: string | undefined, cb: (e?: string) => void) => cb(v && !v.trim() ? message : undefined),
  });
  const tooLong = { maxLength: CREDENTIAL_MAX, message: t('cloud.tooLong', { max: CREDENTIAL_MAX }) };

  return (
    <div className="ec-guide-step" data-testid="guide-step-cloud">
      <p className="ec-guide-intro">{t('cloud.intro')}</p>
      {current ? (
        <Alert
          className="ec-guide-alert"
          type="info"
          content={t('cloud.configured', { address: current.platformAddress, port: current.platformPort })}
        />
      ) : null}
      <Form<CloudValues>
        form={form}
        layout="vertical"
        initialValues={{ setupCode: props.setupCode }}
        onSubmit={(values) => void submit(values)}
        disabled={saving}
      >
        {props.needCode ? <SetupCodeField /> : null}
        <div className="ec-guide-row">
          <Form.Item
            className="ec-guide-grow"
            field="platformAddress"
            label={t('cloud.address')}
            rules={[
              required(t('cloud.addressRequired')),
              {
                validator: (v: string | undefined, cb) =>
                  cb(v && !isPlatformAddress(v.trim()) ? t('errors:cloud.addressInvalid') : undefined),
              },
            ]}
          >
            <Input placeholder={t('cloud.addressPlaceholder')} autoComplete="off" data-testid="guide-cloud-address" />
          </Form.Item>
          <Form.Item
            className="ec-guide-port"
            field="platformPort"
            label={t('cloud.port')}
            rules={[
              required(t('cloud.portInvalid')),
              { validator: (v: string | undefined, cb) => cb(v && parsePort(v) === null ? t('cloud.portInvalid') : undefined) },
            ]}
          >
            <Input placeholder={t('cloud.portPlaceholder')} inputMode="numeric" autoComplete="off" data-testid="guide-cloud-port" />
          </Form.Item>
        </div>
        <Form.Item
          field="platformKey"
          label={t('cloud.key')}
          rules={[required(t('cloud.keyRequired')), notBlank(t('cloud.keyRequired')), tooLong]}
        >
          <Input placeholder={t('cloud.keyPlaceholder')} autoComplete="off" data-testid="guide-cloud-key" />
        </Form.Item>
        <Form.Item
          field="platformSecret"
          label={t('cloud.secret')}
          rules={[required(t('cloud.secretRequired')), notBlank(t('cloud.secretRequired')), tooLong]}
        >
          <Input.Password placeholder={t('cloud.secretPlaceholder')} autoComplete="new-password" data-testid="guide-cloud-secret" />
        </Form.Item>
        <FormError message={error} testId="guide-cloud-error" />
        <div className="ec-guide-actions">
          <Button onClick={props.onBack} disabled={saving} data-testid="guide-cloud-back">
            {t('previous')}
          </Button>
          <span className="ec-guide-actions__spacer" />
          <Button onClick={props.onSkip} disabled={saving} data-testid="guide-cloud-skip">
            {t('cloud.skip')}
          </Button>
          <Button type="primary" htmlType="submit" loading={saving} data-testid="guide-cloud-submit">
            {t('cloud.submit')}
          </Button>
        </div>
      </Form>
    </div>
  );
}
