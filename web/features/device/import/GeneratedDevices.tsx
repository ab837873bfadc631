/** The devices a batch generated, with their tokens, and the download of their CSV. */
import { useState, type JSX } from 'react';
import Button from '@arco-design/web-react/es/Button';
import Table from '@arco-design/web-react/es/Table';
import IconDownload from '@arco-design/web-react/icon/react-icon/IconDownload';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import type { BatchItem, BatchResult } from '../../../../server/contract/device-import.ts';
import { saveBlob } from '../../../lib/download.ts';
import { fetchBatchCsv } from '../deviceApi.ts';
import { ResultSummary } from './ResultSummary.tsx';

export function GeneratedDevices({ result }: { result: BatchResult }): JSX.Element {
  const { t } = useTranslation(['deviceImport', 'common', 'errors']);
  const [downloading, setDownloading] = useState(false);

  const download = async (): Promise<void> => {
    setDownloading(true);
    try {
      saveBlob(await fetchBatchCsv(result.batchId), t('generate.fileName', { time: dayjs().format('YYYYMMDD-HHmmss') }));
    } catch {
      // the client showed why
    } finally {
      setDownloading(false);
    }
  };

  return (
    <>
      <ResultSummary
        status="success"
        title={<span data-testid="generate-created">{t('generate.created', { count: result.items.length })}</span>}
        extra={
          <Button type="primary" icon={<IconDownload />} loading={downloading} onClick={() => void download()} data-testid="generate-download">
            {t('generate.download')}
          </Button>
        }
      />
      <Table<BatchItem>
        size="small"
        rowKey="id"
        border={false}
        data={result.items}
        pagination={{ pageSize: 10, size: 'mini', hideOnSinglePage: true }}
        data-testid="generate-result"
        columns={[
          { title: t('targets.name'), dataIndex: 'name' },
          { title: t('targets.alias'), dataIndex: 'alias', render: (v: string | null) => v ?? '—' },
          { title: t('generate.token'), dataIndex: 'token', render: (v: string) => <code>{v}</code> },
        ]}
      />
    </>
  );
}
