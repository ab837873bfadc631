/** Avatar control of the profile form: preview, upload (checked before sending) and removal. */
import { useState, type JSX } from 'react';
import Avatar from '@arco-design/web-react/es/Avatar';
import Button from '@arco-design/web-react/es/Button';
import IconDelete from '@arco-design/web-react/icon/react-icon/IconDelete';
import IconUpload from '@arco-design/web-react/icon/react-icon/IconUpload';
import IconUser from '@arco-design/web-react/icon/react-icon/IconUser';
import { useTranslation } from 'react-i18next';
import { AVATAR_EXTENSIONS, UPLOAD_MAX_BYTES } from '../../../server/contract/validation.ts';
import { FileUpload } from '../../components/FileUpload.tsx';
import { formatBytes } from '../../components/file-check.ts';
import { uploadImage } from '../../lib/upload-image.ts';

export interface AvatarFieldProps {
  value?: string | null;
  onChange?: (value: string | null) => void;
  disabled?: boolean;
}

export function AvatarField({ value, onChange, disabled }: AvatarFieldProps): JSX.Element {
  const { t } = useTranslation('profile');
  const [uploading, setUploading] = useState(false);
  return (
    <div className="ec-avatar-field">
      <Avatar size={64} className="ec-avatar-field__preview">
        {value ? <img src={value} alt={t('info.avatar')} data-testid="profile-avatar-preview" /> : <IconUser />}
      </Avatar>
      <div className="ec-avatar-field__actions">
        <div className="ec-avatar-field__buttons">
          <FileUpload
            accept={AVATAR_EXTENSIONS}
            maxBytes={UPLOAD_MAX_BYTES}
            testId="profile-avatar"
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
            {uploading ? t('info.uploading') : t('info.avatarUpload')}
          </FileUpload>
          {value ? (
            <Button icon={<IconDelete />} disabled={disabled || uploading} onClick={() => onChange?.(null)} data-testid="profile-avatar-remove">
              {t('info.avatarRemove')}
            </Button>
          ) : null}
        </div>
        <span className="ec-avatar-field__hint">{t('info.avatarHint', { size: formatBytes(UPLOAD_MAX_BYTES) })}</span>
      </div>
    </div>
  );
}
