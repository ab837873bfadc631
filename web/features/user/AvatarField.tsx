/** Avatar control of the profile form: the shared image field with a round avatar preview. */
import type { JSX } from 'react';
import Avatar from '@arco-design/web-react/es/Avatar';
import IconUser from '@arco-design/web-react/icon/react-icon/IconUser';
import { useTranslation } from 'react-i18next';
import { UPLOAD_MAX_BYTES } from '../../../server/contract/validation.ts';
import { ImageUploadField } from '../../components/ImageUploadField.tsx';
import { formatBytes } from '../../components/file-check.ts';

export interface AvatarFieldProps {
  value?: string | null;
  onChange?: (value: string | null) => void;
  disabled?: boolean;
}

export function AvatarField({ value, onChange, disabled }: AvatarFieldProps): JSX.Element {
  const { t } = useTranslation('user');
  return (
    <ImageUploadField
      value={value}
      onChange={onChange}
      disabled={disabled}
      testId="profile-avatar"
      preview={(src, previewTestId) => (
        <Avatar size={64} className="ec-avatar-field__preview">
          {src ? <img src={src} alt={t('info.avatar')} data-testid={previewTestId} /> : <IconUser />}
        </Avatar>
      )}
      uploadText={t('info.avatarUpload')}
      removeText={t('info.avatarRemove')}
      hint={t('info.avatarHint', { size: formatBytes(UPLOAD_MAX_BYTES) })}
    />
  );
}
