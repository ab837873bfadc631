/** Step 1 of the CSV import: drop or pick a .csv or .xlsx, see its summary, or download the template. */
import type { JSX } from 'react';
import Alert from '@arco-design/web-react/es/Alert';
import Button from '@arco-design/web-react/es/Button';
import IconDownload from '@arco-design/web-react/icon/react-icon/IconDownload';
import IconFile from '@arco-design/web-react/icon/react-icon/IconFile';
import { useTranslation } from 'react-i18next';
import { IMPORT_MAX_ROWS, importFormats, type ImportPreview } from '../../../../server/contract/device-import.ts';
import { UPLOAD_MAX_BYTES } from '../../../../server/contract/validation.ts';
import { FileUpload } from '../../../components/FileUpload.tsx';
import { formatBytes } from '../../../components/file-check.ts';
import { FormError } from '../../../components/FormError.tsx';
import { csvBlob, saveBlob } from '../../../lib/download.ts';
import { mappingTargets } from '../importMapping.ts';

export function ImportFileStep(props: {
  hidden: boolean;
  preview: ImportPreview | null;
  fileError: string | null;
  onFile: (file: File) => Promise<void>;
  onRefuse: (message: string) => void;
  onNext: () => void;
}): JSX.Element {
  const { hidden, preview, fileError, onFile, onRefuse, onNext } = props;
  const { t } = useTranslation(['deviceImport', 'common', 'device']);

  const downloadTemplate = (): void => {
    const header = mappingTargets.map((target) => t(`targets.${target}`));
    saveBlob(csvBlob([header]), t('file.templateFile'));
  };

  return (
    <section hidden={hidden} className="ec-wizard__body" aria-label={t('steps.selectFile')}>
      <FileUpload
        variant="drop"
        accept={importFormats}
        maxBytes={UPLOAD_MAX_BYTES}
        onFile={onFile}
        onRefuse={onRefuse}
        hint={t('file.hint', { size: formatBytes(UPLOAD_MAX_BYTES), rows: IMPORT_MAX_ROWS.toLocaleString() })}
        fileName={preview?.fileName ?? null}
        status={fileError ? 'error' : undefined}
        testId="import-file"
      >
        <IconFile /> {t('file.drop')}
      </FileUpload>
      <FormError message={fileError} testId="import-file-error" />
      {preview ? (
        <Alert
          type="success"
          className="ec-wizard__note"
          content={<span data-testid="import-file-summary">{t('file.summary', { file: preview.fileName, rows: preview.rowCount, columns: preview.columns.length })}</span>}
        />
      ) : null}
      <div className="ec-wizard__footer">
        <Button type="text" icon={<IconDownload />} onClick={downloadTemplate} data-testid="import-template">
          {t('file.template')}
        </Button>
        <Button type="primary" disabled={!preview} onClick={onNext} data-testid="import-next-file">
          {t('common:next')}
        </Button>
      </div>
    </section>
  );
}
