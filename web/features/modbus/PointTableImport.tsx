/**
 * The product's Modbus point table as a file: export as CSV or .xlsx (downloaded with the bearer
 * token), import from either (the server creates or updates draft properties by identifier and
 * answers which rows it refused and why, shown in a dialog).
 */
import { useState, type JSX } from 'react';
import Button from '@arco-design/web-react/es/Button';
import Modal from '@arco-design/web-react/es/Modal';
import IconDownload from '@arco-design/web-react/icon/react-icon/IconDownload';
import IconUpload from '@arco-design/web-react/icon/react-icon/IconUpload';
import { useTranslation } from 'react-i18next';
import { importFormats, type ImportFormat } from '../../../server/contract/device-import.ts';
import { POINT_IMPORT_MAX_ROWS, type PointImportResult } from '../../../server/contract/modbus.ts';
import type { Product } from '../../../server/contract/product.ts';
import { UPLOAD_MAX_BYTES } from '../../../server/contract/validation.ts';
import { formatBytes } from '../../components/file-check.ts';
import { FileUpload } from '../../components/FileUpload.tsx';
import { FormError } from '../../components/FormError.tsx';
import { errorMessage } from '../../lib/error-text.ts';
import { saveBlob } from '../../lib/download.ts';
import { RejectedRowsTable } from '../device/import/RejectedRowsTable.tsx';
import { ResultSummary } from '../device/import/ResultSummary.tsx';
import { fetchPointTable, importPointTable } from './modbusApi.ts';
// The result summary's and the rejected rows' styles live with the device import they came from.
import '../device/device.css';

export function PointTableImport({ product, onImported }: { product: Product; onImported: () => void }): JSX.Element {
  const { t } = useTranslation('modbus');
  const [exporting, setExporting] = useState<ImportFormat | null>(null);
  const [result, setResult] = useState<PointImportResult | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  const download = async (format: ImportFormat): Promise<void> => {
    setExporting(format);
    try {
      saveBlob(await fetchPointTable(product.id, format), t('table.file', { name: product.name, ext: format }));
    } catch {
      // the client showed why
    } finally {
      setExporting(null);
    }
  };

  const upload = async (file: File): Promise<void> => {
    setFailure(null);
    try {
      setResult(await importPointTable(product.id, file));
      onImported();
    } catch (err) {
      setFailure(errorMessage(err));
    }
  };

  const rejected = result?.rejected.length ?? 0;
  return (
    <section className="ec-modbus-card" aria-labelledby="modbus-table-title" data-testid="modbus-point-table">
      <header className="ec-modbus-card__head">
        <h3 id="modbus-table-title">{t('table.title')}</h3>
      </header>
      <p className="ec-modbus-muted">{t('table.hint')}</p>
      <div className="ec-modbus-toolbar">
        <Button icon={<IconDownload />} loading={exporting === 'csv'} onClick={() => void download('csv')} data-testid="modbus-export-csv">
          {t('table.exportCsv')}
        </Button>
        <Button icon={<IconDownload />} loading={exporting === 'xlsx'} onClick={() => void download('xlsx')} data-testid="modbus-export-xlsx">
          {t('table.exportXlsx')}
        </Button>
        <FileUpload
          accept={importFormats}
          maxBytes={UPLOAD_MAX_BYTES}
          onFile={upload}
          onRefuse={(message) => setFailure(message)}
          hint={t('table.importHint', { size: formatBytes(UPLOAD_MAX_BYTES), rows: POINT_IMPORT_MAX_ROWS.toLocaleString() })}
          testId="modbus-import-file"
        >
          <IconUpload /> {t('table.import')}
        </FileUpload>
      </div>
      <FormError message={failure} testId="modbus-import-error" />
      <Modal
        visible={result !== null}
        title={t('table.resultTitle')}
        onCancel={() => setResult(null)}
        footer={
          <Button type="primary" onClick={() => setResult(null)} data-testid="modbus-import-close">
            {t('table.close')}
          </Button>
        }
        style={{ width: 'min(720px, calc(100vw - 32px))' }}
      >
        {result ? (
          <div data-testid="modbus-import-result">
            <ResultSummary
              status={rejected === 0 ? 'success' : result.created + result.updated === 0 ? 'error' : 'warning'}
              title={<span data-testid="modbus-import-counts">{t('table.created', { created: result.created, updated: result.updated })}</span>}
              subTitle={<span data-testid="modbus-import-rejected-count">{rejected === 0 ? t('table.allGood') : t('table.rejectedCount', { count: rejected })}</span>}
            />
            {rejected > 0 ? <RejectedRowsTable rows={result.rejected} nameTitle={t('table.identifier')} testId="modbus-import-rejected" /> : null}
          </div>
        ) : null}
      </Modal>
    </section>
  );
}
