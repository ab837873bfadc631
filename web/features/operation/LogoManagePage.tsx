/**
 * Operation management → branding: platform name, logo, icon (the favicon) and slogan. Saving
 * applies it at once to this tab's sidebar, favicon and title (the session store), to the other
 * open tabs through the storage event, and to the login page.
 */
import { useEffect, useState, type JSX } from 'react';
import Button from '@arco-design/web-react/es/Button';
import Card from '@arco-design/web-react/es/Card';
import Form from '@arco-design/web-react/es/Form';
import Input from '@arco-design/web-react/es/Input';
import Message from '@arco-design/web-react/es/Message';
import { useTranslation } from 'react-i18next';
import { SLOGAN_MAX, type PlatformInfo } from '../../../server/contract/platform.ts';
import { NAME_MAX } from '../../../server/contract/validation.ts';
import { FormError } from '../../components/FormError.tsx';
import { ImageUploadField } from '../../components/ImageUploadField.tsx';
import { errorMessage, serverFieldErrors } from '../../lib/error-text.ts';
import { maxLengthRule, requiredRule } from '../../lib/form-rules.ts';
import { loadPlatform } from '../auth/sessionApi.ts';
import { saveBranding } from './operationApi.ts';

interface BrandingValues {
  name: string;
  logo: string | null;
  icon: string | null;
  slogan: string;
}

const fields = ['name', 'logo', 'icon', 'slogan'] as const;

function valuesOf(p: PlatformInfo): BrandingValues {
  return { name: p.name ?? '', logo: p.logo, icon: p.icon, slogan: p.slogan ?? '' };
}

export function LogoManagePage(): JSX.Element {
  const { t } = useTranslation('operation');
  const [form] = Form.useForm<BrandingValues>();
  const [loaded, setLoaded] = useState(false);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    loadPlatform().then(
      (p) => {
        form.setFieldsValue(valuesOf(p));
        setLoaded(true);
      },
      (err: unknown) => setError(errorMessage(err)),
    );
  }, [form]);

  const submit = async (values: BrandingValues): Promise<void> => {
    setSaving(true);
    setError(null);
    try {
      await saveBranding({ name: values.name.trim(), logo: values.logo ?? '', icon: values.icon ?? '', slogan: values.slogan.trim() || null });
      Message.success(t('branding.saved'));
    } catch (err) {
      const onFields = serverFieldErrors(err, values, fields);
      if (onFields) form.setFields(onFields);
      else setError(errorMessage(err));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Card title={t('branding.title')} bordered={false} data-testid="branding-page">
      <p className="ec-op-hint">{t('branding.hint')}</p>
      <Form<BrandingValues> form={form} layout="vertical" style={{ maxWidth: 560 }} disabled={!loaded} onSubmit={(v) => void submit(v)}>
        <Form.Item field="name" label={t('branding.name')} required rules={[requiredRule(), maxLengthRule(NAME_MAX, 'name')]}>
          <Input placeholder={t('branding.namePlaceholder')} maxLength={{ length: NAME_MAX, errorOnly: true }} showWordLimit data-testid="branding-name" />
        </Form.Item>
        <Form.Item field="logo" label={t('branding.logo')} required rules={[requiredRule(t('branding.imageRequired'))]}>
          <ImageUploadField testId="branding-logo" hint={t('branding.logoHint')} />
        </Form.Item>
        <Form.Item field="icon" label={t('branding.icon')} required rules={[requiredRule(t('branding.imageRequired'))]}>
          <ImageUploadField testId="branding-icon" hint={t('branding.iconHint')} />
        </Form.Item>
        <Form.Item field="slogan" label={t('branding.slogan')} rules={[maxLengthRule(SLOGAN_MAX, 'description')]}>
          <Input placeholder={t('branding.sloganPlaceholder')} maxLength={{ length: SLOGAN_MAX, errorOnly: true }} showWordLimit data-testid="branding-slogan" />
        </Form.Item>
        <FormError message={error} testId="branding-error" />
        <Button type="primary" htmlType="submit" loading={saving} data-testid="branding-save">
          {t('branding.save')}
        </Button>
      </Form>
    </Card>
  );
}
