/** The `.lic` chooser of the wizard, the expired-licence page and the licence dialog: type and size checked here. */
import type { JSX } from 'react';
import IconUpload from '@arco-design/web-react/icon/react-icon/IconUpload';
import { useTranslation } from 'react-i18next';
import { LICENSE_MAX_BYTES } from '../../../server/contract/license.ts';
import { LICENSE_EXTENSION } from '../../../server/contract/validation.ts';
import { FileUpload } from '../../components/FileUpload.tsx';
import { formatBytes } from '../../components/file-check.ts';

export interface LicenseFileUploadProps {
  testId: string;
  fileName?: string | null;
  /** Shown instead of the prompt while the caller verifies the file. */
  busyText?: string;
  loading?: boolean;
  disabled?: boolean;
  status?: 'error';
  onFile: (file: File) => void | Promise<void>;
  onRefuse: (message: string) => void;
}

export function LicenseFileUpload(props: LicenseFileUploadProps): JSX.Element {
  const { t } = useTranslation('license');
  return (
    <FileUpload
      variant="drop"
      accept={[LICENSE_EXTENSION]}
      maxBytes={LICENSE_MAX_BYTES}
      testId={props.testId}
      loading={props.loading}
      disabled={props.disabled}
      status={props.status}
      fileName={props.fileName}
      hint={t('upload.hint', { size: formatBytes(LICENSE_MAX_BYTES) })}
      onRefuse={props.onRefuse}
      onFile={props.onFile}
    >
      <IconUpload />
      {props.loading && props.busyText ? props.busyText : t('upload.choose')}
    </FileUpload>
  );
}
