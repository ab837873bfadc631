/**
 * Wizard step "finally" of a file import: what was created, what was not and why, and the rejected
 * rows as a file of the upload's type (.xlsx for an .xlsx, else CSV).
 */
import { useState, type JSX } from 'react';
import Button from '@arco-design/web-react/es/Button';
import IconDownload from '@arco-design/web-react/icon/react-icon/IconDownload';
import { useTranslation } from 'react-i18next';
import { importFormatOf, type ImportPreview, type ImportResult } from '../../../../server/contract/device-import.ts';
import { saveBlob } from '../../../lib/download.ts';
import { fetchRejectedRows } from '../deviceApi.ts';
import { RejectedRowsTable } from './RejectedRowsTable.tsx';
import { ResultSummary } from './ResultSummary.tsx';

export function ImportResultStep({ result, preview }: { result: ImportResult; preview: ImportPreview }): JSX.Element {
  const { t } = useTranslation('deviceImport');
  const [downloading, setDownloading] = useState(false);
  const rejected = result.rejected.length;

  const download = async (): Promise<void> => {
    setDownloading(true);
    try {
      const format = importFormatOf(preview.fileName) ?? 'csv';
      saveBlob(await fetchRejectedRows(preview.importId, format), t('finally.rejectedFile', { file: preview.fileName }));
    } catch {
      // the client showed why (e.g. the import expired)
    } finally {
      setDownloading(false);
    }
  };

  return (
    <div data-testid="import-result">
      <ResultSummary
        status={rejected === 0 ? 'success' : result.created === 0 ? 'error' : 'warning'}
        title={<span data-testid="import-created">{t('finally.created', { count: result.created })}</span>}
        subTitle={
          <span data-testid="import-rejected-count">{rejected === 0 ? t('finally.allGood') : t('finally.rejectedCount', { count: rejected })}</span>
        }
        extra={
          rejected > 0 ? (
            <Button icon={<IconDownload />} loading={downloading} onClick={() => void download()} data-testid="import-download-rejected">
              {t('finally.download')}
            </Button>
          ) : null
        }
      />
      {rejected > 0 ? (
        <>
          <h3 className="ec-wizard__subtitle">{t('finally.rejectedTitle')}</h3>
          <RejectedRowsTable rows={result.rejected} nameTitle={t('finally.name')} testId="import-rejected" />
        </>
      ) : null}
    </div>
  );
}
