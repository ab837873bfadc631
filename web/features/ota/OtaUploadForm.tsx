/** The upload part of the product's firmware dialog: title, version, checksum algorithm, optional checksum, file. */
import { useState, type JSX } from 'react';
import Button from '@arco-design/web-react/es/Button';
import Form from '@arco-design/web-react/es/Form';
import Input from '@arco-design/web-react/es/Input';
import Message from '@arco-design/web-react/es/Message';
import Select from '@arco-design/web-react/es/Select';
import { useTranslation } from 'react-i18next';
import { OTA_MAX_BYTES, otaChecksumAlgorithms, type OtaPackage } from '../../../server/contract/ota.ts';
import { FileUpload } from '../../components/FileUpload.tsx';
import { uploadOtaPackage, type OtaUploadValues } from './otaApi.ts';

export function OtaUploadForm({ productId, onUploaded }: { productId: string; onUploaded: (pkg: OtaPackage) => void }): JSX.Element {
  const { t } = useTranslation('ota');
  const [form] = Form.useForm<OtaUploadValues>();
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const submit = async (): Promise<void> => {
    const values = await form.validate();
    if (!file) {
      setError(t('fileRequired'));
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const pkg = await uploadOtaPackage(productId, values, file);
      Message.success(t('uploaded', { title: pkg.title, version: pkg.version }));
      form.resetFields();
      setFile(null);
      onUploaded(pkg);
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Form form={form} layout="inline" initialValues={{ checksumAlgorithm: 'SHA256' }} className="ec-ota__upload" data-testid="ota-upload-form">
      <Form.Item field="title" label={t('field.title')} rules={[{ required: true, message: t('field.titleRequired') }, { maxLength: 255 }]}>
        <Input style={{ width: 140 }} data-testid="ota-title" />
      </Form.Item>
      <Form.Item field="version" label={t('field.version')} rules={[{ required: true, message: t('field.versionRequired') }, { maxLength: 255 }]}>
        <Input style={{ width: 100 }} data-testid="ota-version" />
      </Form.Item>
      <Form.Item field="checksumAlgorithm" label={t('field.checksumAlgorithm')}>
        <Select style={{ width: 110 }} options={otaChecksumAlgorithms.map((a) => ({ label: a, value: a }))} data-testid="ota-algorithm" />
      </Form.Item>
      <Form.Item field="checksum" label={t('field.checksum')} rules={[{ match: /^[0-9A-Fa-f]*$/, message: t('field.checksumHex') }]}>
        <Input style={{ width: 180 }} placeholder={t('field.checksumPlaceholder')} data-testid="ota-checksum" />
      </Form.Item>
      <Form.Item label={t('field.file')}>
        <FileUpload accept={[]} maxBytes={OTA_MAX_BYTES} fileName={file?.name ?? null} onFile={(f) => setFile(f)} testId="ota-file">
          {t('chooseFile')}
        </FileUpload>
      </Form.Item>
      <Form.Item>
        <Button type="primary" loading={busy} onClick={() => void submit()} data-testid="ota-upload">
          {t('upload')}
        </Button>
      </Form.Item>
      {error ? (
        <div className="ec-ota__error" role="alert" data-testid="ota-upload-error">
          {error}
        </div>
      ) : null}
    </Form>
  );
}
