/**
 * Where code 99 (licence invalid) lands: the licence has expired (or is missing while an
 * administrator exists). The session was reset on the way here, so the form signs the
 * administrator in silently and uploads the new `.lic` with that token, then opens the workbench.
 */
import { useEffect, useState, type JSX } from 'react';
import Button from '@arco-design/web-react/es/Button';
import Descriptions from '@arco-design/web-react/es/Descriptions';
import Form from '@arco-design/web-react/es/Form';
import Input from '@arco-design/web-react/es/Input';
import Message from '@arco-design/web-react/es/Message';
import Spin from '@arco-design/web-react/es/Spin';
import IconLock from '@arco-design/web-react/icon/react-icon/IconLock';
import IconUser from '@arco-design/web-react/icon/react-icon/IconUser';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'wouter';
import type { LicenseInfo } from '../../../server/contract/license.ts';
import { formatDateTime } from '../../lib/date-format.ts';
import { FormError } from '../../components/FormError.tsx';
import { errorMessage } from '../../lib/error-text.ts';
import { consolePaths } from '../../../server/contract/console-paths.ts';
import { getSession } from '../../stores/session.ts';
import { AuthFrame } from '../auth/AuthFrame.tsx';
import { loadSetupState, signIn } from '../auth/sessionApi.ts';
import { findLicense, uploadLicense } from './licenseApi.ts';
import { LicenseFileUpload } from './LicenseFileUpload.tsx';
import './ExpiredLicensePage.css';

interface UploadValues {
  username: string;
  password: string;
}

export function ExpiredLicensePage(): JSX.Element {
  const { t } = useTranslation(['license', 'guide', 'errors', 'common', 'http']);
  const [, navigate] = useLocation();
  const [form] = Form.useForm<UploadValues>();
  const [info, setInfo] = useState<LicenseInfo | null>(null);
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    // Silent on purpose: a missing licence is why the user is here, and the page explains it.
    findLicense().then(setInfo, () => undefined);
    // Without an administrator nobody could sign in here: first boot belongs to the wizard.
    loadSetupState().then((state) => !state.adminCreated && navigate(consolePaths.guide, { replace: true }), () => undefined);
  }, [navigate]);

  const submit = async (values: UploadValues): Promise<void> => {
    if (!file) {
      setFileError(t('expired.fileRequired'));
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await signIn(values.username.trim(), values.password, getSession().remember);
    } catch (err) {
      setError(t('expired.signInFailed', { message: errorMessage(err) }));
      setBusy(false);
      return;
    }
    try {
      const installed = await uploadLicense(file);
      Message.success(t('expired.success', { expiresAt: formatDateTime(installed.license?.expiresAt) }));
      navigate(consolePaths.workbench, { replace: true });
    } catch (err) {
      setError(t('expired.uploadFailed', { message: errorMessage(err) }));
      setBusy(false);
    }
  };

  const status = info?.status ?? 'EXPIRED';
  const heading = status === 'VALID' ? t('expired.validTitle') : status === 'MISSING' ? t('expired.missingTitle') : t('expired.title');
  const intro = status === 'VALID' ? t('expired.validIntro') : status === 'MISSING' ? t('expired.missingIntro') : t('expired.intro');

  return (
    <AuthFrame title={heading} width={480} testId="expired-license-page">
      <p className="ec-expired-intro">{intro}</p>
      {info ? (
        <Descriptions
          className="ec-expired-facts"
          column={1}
          size="small"
          border
          data={[
            { label: t('expired.deviceSn'), value: <span data-testid="expired-device-sn">{info.deviceSn}</span> },
            ...(info.license
              ? [
                  { label: t('expired.expiresAt'), value: <span data-testid="expired-expires-at">{formatDateTime(info.license.expiresAt)}</span> },
                  { label: t('expired.customer'), value: info.license.customer || '-' },
                ]
              : []),
          ]}
        />
      ) : (
        <Spin className="ec-expired-loading" />
      )}
      {status === 'VALID' ? (
        <Button type="primary" long size="large" onClick={() => navigate(consolePaths.login)} data-testid="expired-go-login">
          {t('expired.goLogin')}
        </Button>
      ) : (
        <Form<UploadValues>
          form={form}
          layout="vertical"
          onSubmit={(values) => void submit(values)}
          onSubmitFailed={() => !file && setFileError(t('expired.fileRequired'))}
          disabled={busy}
        >
          <Form.Item field="username" label={t('expired.username')} rules={[{ required: true, message: t('expired.usernameRequired') }]}>
            <Input prefix={<IconUser />} placeholder={t('expired.usernamePlaceholder')} autoComplete="username" data-testid="expired-username" />
          </Form.Item>
          <Form.Item field="password" label={t('expired.password')} rules={[{ required: true, message: t('expired.passwordRequired') }]}>
            <Input.Password
              prefix={<IconLock />}
              placeholder={t('expired.passwordPlaceholder')}
              autoComplete="current-password"
              data-testid="expired-password"
            />
          </Form.Item>
          <Form.Item
            label={t('expired.file')}
            required
            validateStatus={fileError ? 'error' : undefined}
            help={fileError ?? undefined}
          >
            <LicenseFileUpload
              testId="expired-license-file"
              disabled={busy}
              status={fileError ? 'error' : undefined}
              fileName={file?.name}
              onRefuse={(message) => {
                setFile(null);
                setFileError(message);
              }}
              onFile={(chosen) => {
                setFile(chosen);
                setFileError(null);
              }}
            />
          </Form.Item>
          <FormError message={error} testId="expired-error" />
          <Button type="primary" htmlType="submit" long size="large" loading={busy} data-testid="expired-submit">
            {t('expired.submit')}
          </Button>
        </Form>
      )}
    </AuthFrame>
  );
}
