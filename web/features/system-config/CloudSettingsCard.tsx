/**
 * System configuration → cloud platform: the same fields as the wizard's step 2 (CloudFields), a
 * connection test of what is in the form, and saving. Saving does not wait for a test: the
 * cloud may be down right now and still be the right one.
 */
import { useEffect, useState, type JSX } from 'react';
import Alert from '@arco-design/web-react/es/Alert';
import Button from '@arco-design/web-react/es/Button';
import Card from '@arco-design/web-react/es/Card';
import Form from '@arco-design/web-react/es/Form';
import Message from '@arco-design/web-react/es/Message';
import { useTranslation } from 'react-i18next';
import type { CloudConfigView } from '../../../server/contract/cloud.ts';
import { FormError } from '../../components/FormError.tsx';
import { errorMessage } from '../../lib/error-text.ts';
import { useLeaveGuard } from '../../lib/leave-guard.ts';
import { CloudFields } from '../cloud/CloudFields.tsx';
import { cloudValuesOf, toCloudConfig, type CloudValues } from '../cloud/cloudForm.ts';
import { CloudTestAlert } from '../cloud/CloudTestAlert.tsx';
import { loadCloudConfig, saveCloudConfig } from '../cloud/cloudApi.ts';
import { useCloudTest } from '../cloud/useCloudTest.ts';

export function CloudSettingsCard(): JSX.Element {
  const { t } = useTranslation(['systemConfig', 'guide']);
  const [form] = Form.useForm<CloudValues>();
  const [loaded, setLoaded] = useState(false);
  const [stored, setStored] = useState<CloudConfigView>(null);
  const [saving, setSaving] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  // An edit not saved yet: leaving the page (menu, breadcrumb, back, closing the tab) asks first.
  const [dirty, setDirty] = useState(false);
  useLeaveGuard(dirty);
  const test = useCloudTest();

  useEffect(() => {
    let live = true;
    loadCloudConfig().then(
      (view) => {
        if (!live) return;
        setStored(view);
        if (view) form.setFieldsValue(cloudValuesOf(view));
        setLoaded(true);
      },
      (err: unknown) => live && setFailure(errorMessage(err)),
    );
    return () => {
      live = false;
    };
  }, [form]);

  const submit = async (values: CloudValues): Promise<void> => {
    setSaving(true);
    setFailure(null);
    try {
      const saved = await saveCloudConfig(toCloudConfig(values));
      setStored(saved);
      setDirty(false);
      // The CA sent is now the stored one: the form keeps it by sending none.
      form.setFieldsValue({ platformSecret: '', platformCaPem: undefined });
      Message.success(t('cloud.saved'));
    } catch (err) {
      setFailure(errorMessage(err));
    } finally {
      setSaving(false);
    }
  };

  const runTest = async (): Promise<void> => {
    const values = await form.validate().catch(() => null);
    if (values) await test.run(toCloudConfig(values));
  };

  return (
    <Card title={<h2 className="ec-system-config__title">{t('cloud.title')}</h2>} bordered={false} data-testid="system-cloud">
      <Alert
        type="info"
        className="ec-system-config__intro"
        content={stored ? t('cloud.intro') : t('cloud.notConfigured')}
        data-testid="system-cloud-intro"
      />
      <Form<CloudValues>
        form={form}
        layout="vertical"
        initialValues={{ platformTls: false }}
        onSubmit={(v) => void submit(v)}
        onValuesChange={() => {
          test.clear();
          setDirty(true);
        }}
        disabled={!loaded || saving}
      >
        <CloudFields testIdPrefix="system-cloud" storedCa={stored?.platformCa ?? null} />
        {stored?.platformSecretSet ? <p className="ec-system-config__hint">{t('cloud.secretSet')}</p> : null}
        <CloudTestAlert outcome={test.outcome} testId="system-cloud-test-result" />
        <FormError message={failure} testId="system-cloud-error" />
        <div className="ec-system-config__actions">
          <Button onClick={() => void runTest()} loading={test.testing} disabled={!loaded || saving} data-testid="system-cloud-test">
            {t('guide:cloud.test')}
          </Button>
          <Button type="primary" htmlType="submit" loading={saving} disabled={test.testing} data-testid="system-cloud-save">
            {t('cloud.save')}
          </Button>
        </div>
      </Form>
    </Card>
  );
}
