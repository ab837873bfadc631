/**
 * An image form field (product image, avatar, logos): preview, upload through
 * `POST /api/yt/oss/upload` (type and 5 MB size checked before sending, by FileUpload), replace
 * and remove. The value is the stored image's address (`fileStaticUri`) or null.
 *
 * @example
 * <Form.Item field="image" label={t('image')}>
 *   <ImageUploadField testId="product-form-image" />   // -> product-form-image-preview / -remove
 * </Form.Item>
 * // own preview and texts (the profile's avatar):
 * <ImageUploadField testId="profile-avatar" preview={(src) => <Avatar>…</Avatar>} uploadText={t('info.avatarUpload')} />
 */
import { useState, type JSX, type ReactNode } from 'react';
import Button from '@arco-design/web-react/es/Button';
import IconDelete from '@arco-design/web-react/icon/react-icon/IconDelete';
import IconImage from '@arco-design/web-react/icon/react-icon/IconImage';
import IconUpload from '@arco-design/web-react/icon/react-icon/IconUpload';
import { useTranslation } from 'react-i18next';
import { AVATAR_EXTENSIONS, UPLOAD_MAX_BYTES } from '../../server/contract/validation.ts';
import { uploadImage } from '../lib/upload-image.ts';
import { FileUpload } from './FileUpload.tsx';
import { acceptAttribute, formatBytes } from './file-check.ts';
import './ImageUploadField.css';

export interface ImageUploadFieldProps {
  value?: string | null;
  onChange?: (value: string | null) => void;
  disabled?: boolean;
  /** `data-testid` of the file input; the preview image is `<testId>-preview`, removal `<testId>-remove`. */
  testId: string;
  /** Accepted extensions; the image types the file store keeps by default. */
  accept?: readonly string[];
  /** Replaces the default square preview; receives the image address and the preview's test id. */
  preview?: (src: string | null, previewTestId: string) => ReactNode;
  uploadText?: ReactNode;
  removeText?: ReactNode;
  /** Replaces the default "types, size" hint. */
  hint?: ReactNode;
}

export function ImageUploadField(props: ImageUploadFieldProps): JSX.Element {
  const { value, onChange, disabled, testId, accept = AVATAR_EXTENSIONS } = props;
  const { t } = useTranslation('table');
  const [uploading, setUploading] = useState(false);
  const src = value ?? null;
  return (
    <div className="ec-image-field">
      {props.preview ? (
        props.preview(src, `${testId}-preview`)
      ) : (
        <div className="ec-image-field__preview">
          {src ? <img src={src} alt={t('imageAlt')} data-testid={`${testId}-preview`} /> : <IconImage aria-hidden />}
        </div>
      )}
      <div className="ec-image-field__actions">
        <div className="ec-image-field__buttons">
          <FileUpload
            accept={accept}
            maxBytes={UPLOAD_MAX_BYTES}
            testId={testId}
            disabled={disabled}
            onFile={async (file) => {
              setUploading(true);
              try {
                onChange?.(await uploadImage(file));
              } catch {
                // The client already showed the server's message.
              } finally {
                setUploading(false);
              }
            }}
          >
            <IconUpload />
            {uploading ? t('uploading') : (props.uploadText ?? (src ? t('replaceImage') : t('uploadImage')))}
          </FileUpload>
          {src ? (
            <Button icon={<IconDelete />} disabled={disabled || uploading} onClick={() => onChange?.(null)} data-testid={`${testId}-remove`}>
              {props.removeText ?? t('removeImage')}
            </Button>
          ) : null}
        </div>
        <span className="ec-image-field__hint">
          {props.hint ?? t('imageHint', { types: acceptAttribute(accept).replace(/,/g, ' '), size: formatBytes(UPLOAD_MAX_BYTES) })}
        </span>
      </div>
    </div>
  );
}
