/**
 * Wizard step 2: the cloud platform this gateway connects to, or a skip to run standalone. The
 * connection is tested before the settings are saved (a gateway without the test saves directly);
 * after saving, the "cloud data loading" wait shows the link's progress.
 */
import { useCallback, useEffect, useMemo, useState, type JSX } from 'react';
import Alert from '@arco-design/web-react/es/Alert';
import Button from '@arco-design/web-react/es/Button';
import Form from '@arco-design/web-react/es/Form';
import Message from '@arco-design/web-react/es/Message';
import { useTranslation } from 'react-i18next';
import type { CloudConfigView } from '../../../server/contract/cloud.ts';
import { SETUP_CODE_HEADER } from '../../../server/contract/license.ts';
import { FormError } from '../../components/FormError.tsx';
import { errorMessage } from '../../lib/error-text.ts';
import { CloudFields } from '../cloud/CloudFields.tsx';
import { cloudValuesOf, toCloudConfig, type CloudValues } from '../cloud/cloudForm.ts';
import { CloudTestAlert } from '../cloud/CloudTestAlert.tsx';
import { loadCloudConfig, saveCloudConfig } from '../cloud/cloudApi.ts';
import { testAllowsSaving, useCloudTest } from '../cloud/useCloudTest.ts';
import { CloudLoadingProgress } from './CloudLoadingProgress.tsx';
import { isSetupCodeError, SetupCodeField, SETUP_CODE_FIELD } from './SetupCodeField.tsx';

interface StepValues extends CloudValues {
  setupCode?: string;
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
  const [form] = Form.useForm<StepValues>();
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [current, setCurrent] = useState<CloudConfigView>(null);
  const [savedWith, setSavedWith] = useState<string | null>(null);
  const test = useCloudTest();
  const { onDone } = props;

  useEffect(() => {
    if (!props.configured || !props.setupCode) return;
    // Prefill from what is stored; the secret is never returned and has to be entered again.
    loadCloudConfig({ [SETUP_CODE_HEADER]: props.setupCode }).then((view) => {
      setCurrent(view);
      if (view) form.setFieldsValue(cloudValuesOf(view));
    }, () => undefined);
  }, [props.configured, props.setupCode, form]);

  const codeOf = (values: StepValues): string => (values.setupCode ?? props.setupCode).trim();

  /** A refused setup code goes to its field when it is shown, else to the form's error. */
  const showFailure = (err: unknown, values: StepValues): void => {
    if (isSetupCodeError(err)) props.onCodeRejected();
    if (isSetupCodeError(err) && props.needCode) {
      form.setFields({ [SETUP_CODE_FIELD]: { value: values.setupCode, error: { message: err.message } } });
    } else {
      setError(errorMessage(err));
    }
  };

  const runTest = async (): Promise<void> => {
    setError(null);
    const values = await form.validate().catch(() => null);
    if (values) await test.run(toCloudConfig(values), { [SETUP_CODE_HEADER]: codeOf(values) });
  };

  const submit = async (values: StepValues): Promise<void> => {
    const code = codeOf(values);
    const body = toCloudConfig(values);
    setSaving(true);
    setError(null);
    try {
      if (!testAllowsSaving(await test.run(body, { [SETUP_CODE_HEADER]: code }))) return;
      await saveCloudConfig(body, { [SETUP_CODE_HEADER]: code });
      props.onCodeAccepted(code);
      Message.success(t('cloud.saved'));
      setSavedWith(code);
    } catch (err) {
      showFailure(err, values);
    } finally {
      setSaving(false);
    }
  };

  const loadingHeaders = useMemo(() => (savedWith ? { [SETUP_CODE_HEADER]: savedWith } : undefined), [savedWith]);
  const finish = useCallback(() => onDone(), [onDone]);
  if (loadingHeaders) {
    return (
      <div className="ec-guide-step" data-testid="guide-step-cloud">
        <CloudLoadingProgress headers={loadingHeaders} onDone={finish} />
      </div>
    );
  }

  const busy = saving || test.testing;
  return (
    <div className="ec-guide-step" data-testid="guide-step-cloud">
      <p className="ec-guide-intro">{t('cloud.intro')}</p>
      {current ? (
        <Alert className="ec-guide-alert" type="info" content={t('cloud.configured', { address: current.platformAddress, port: current.platformPort })} />
      ) : null}
      <Form<StepValues>
        form={form}
        layout="vertical"
        initialValues={{ setupCode: props.setupCode, platformTls: false }}
        onSubmit={(values) => void submit(values)}
        onValuesChange={() => test.clear()}
        disabled={busy}
      >
        {props.needCode ? <SetupCodeField /> : null}
        <CloudFields testIdPrefix="guide-cloud" storedCa={current?.platformCa ?? null} />
        <CloudTestAlert outcome={test.outcome} testId="guide-cloud-test-result" />
        <FormError message={error} testId="guide-cloud-error" />
        <div className="ec-guide-actions">
          <Button onClick={props.onBack} disabled={busy} data-testid="guide-cloud-back">
            {t('previous')}
          </Button>
          <span className="ec-guide-actions__spacer" />
          <Button onClick={props.onSkip} disabled={busy} data-testid="guide-cloud-skip">
            {t('cloud.skip')}
          </Button>
          <Button onClick={() => void runTest()} loading={test.testing && !saving} disabled={saving} data-testid="guide-cloud-test">
            {t('cloud.test')}
          </Button>
          <Button type="primary" htmlType="submit" loading={saving} data-testid="guide-cloud-submit">
            {t('cloud.submit')}
          </Button>
        </div>
      </Form>
    </div>
  );
}
