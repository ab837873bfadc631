/**
 * Wizard step 1: activate the edge system with a `.lic` licence. The device serial number is shown
 * so the administrator can request a licence for this gateway; the file is checked here (type,
 * 5 MB) and verified by the server (signature, device, expiry), whose refusal is shown as is.
 */
import { useState, type JSX } from 'react';
import Alert from '@arco-design/web-react/es/Alert';
import Button from '@arco-design/web-react/es/Button';
import Form from '@arco-design/web-react/es/Form';
import Message from '@arco-design/web-react/es/Message';
import { useTranslation } from 'react-i18next';
import type { LicensePayload } from '../../../server/contract/license.ts';
import { CopyableValue } from '../../components/CopyableValue.tsx';
import { FormError } from '../../components/FormError.tsx';
import { errorMessage } from '../../lib/error-text.ts';
import { LicenseDetails } from '../license/LicenseDetails.tsx';
import { LicenseFileUpload } from '../license/LicenseFileUpload.tsx';
import { uploadLicense } from '../license/licenseApi.ts';
import { isSetupCodeError, SetupCodeField, SETUP_CODE_FIELD } from './SetupCodeField.tsx';

export interface LicenseStepProps {
  deviceSn: string;
  /** The installed licence has expired: a new one is needed. */
  expired: boolean;
  setupCode: string;
  /** The valid licence installed, if any. */
  license: LicensePayload | null;
  onCodeAccepted: (code: string) => void;
  onCodeRejected: () => void;
  onActivated: (license: LicensePayload) => void;
  onNext: () => void;
}

export function LicenseStep(props: LicenseStepProps): JSX.Element {
  const { t } = useTranslation('guide');
  const [form] = Form.useForm<{ setupCode: string }>();
  const [pending, setPending] = useState<File | null>(null);
  const [uploading, setUploading] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const upload = async (file: File): Promise<boolean> => {
    let code: string;
    try {
      code = (await form.validate()).setupCode.trim();
    } catch {
      return false;
    }
    setUploading(true);
    setError(null);
    try {
      const info = await uploadLicense(file, code);
      props.onCodeAccepted(code);
      setPending(null);
      if (info.license) props.onActivated(info.license);
      Message.success(t('license.activated'));
      return true;
    } catch (err) {
      if (isSetupCodeError(err)) {
        form.setFields({ [SETUP_CODE_FIELD]: { value: code, error: { message: err.message } } });
        props.onCodeRejected();
      } else {
        setError(errorMessage(err));
      }
      return false;
    } finally {
      setUploading(false);
    }
  };

  const next = async (): Promise<void> => {
    if (pending) {
      if (await upload(pending)) props.onNext();
    } else if (props.license) {
      props.onNext();
    } else {
      setError(t('license.fileRequired'));
    }
  };

  return (
    <div className="ec-guide-step" data-testid="guide-step-license">
      <p className="ec-guide-intro">{t('license.intro')}</p>
      {props.expired && !props.license ? (
        <Alert className="ec-guide-alert" type="warning" content={t('license.expiredNotice')} />
      ) : null}
      <div className="ec-guide-sn">
        <span className="ec-guide-sn__label">{t('license.deviceSn')}</span>
        {/* Not Arco's Typography: its ellipsis imports Arco's whole index, which put this page over its size budget. */}
        <CopyableValue value={props.deviceSn} testId="guide-device-sn" />
        <span className="ec-guide-sn__hint">{t('license.deviceSnHint')}</span>
      </div>
      <Form form={form} layout="vertical" initialValues={{ setupCode: props.setupCode }} onSubmit={() => void next()}>
        <SetupCodeField />
        <Form.Item label={t('license.file')} required>
          <LicenseFileUpload
            testId="guide-license-file"
            loading={uploading}
            busyText={t('license.verifying')}
            fileName={pending?.name}
            onRefuse={(message) => {
              setPending(null);
              setError(message);
            }}
            onFile={async (file) => {
              setPending(file);
              setError(null);
              await upload(file);
            }}
          />
        </Form.Item>
      </Form>
      <FormError message={error} testId="guide-license-error" />
      {props.license ? (
        <div className="ec-guide-alert">
          <Alert type="success" content={t('license.activated')} />
          <LicenseDetails license={props.license} testId="guide-license-details" />
        </div>
      ) : null}
      <div className="ec-guide-actions">
        <Button type="primary" loading={uploading} onClick={() => void next()} data-testid="guide-license-next">
          {t('license.next')}
        </Button>
      </div>
    </div>
  );
}
