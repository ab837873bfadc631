/**
 * TSL import: a JSON file of at most 5 MB replaces the draft after a
 * confirmation that says what the file holds and that draft items missing from it go. A refusal
 * imports nothing; each broken rule is listed with the entry it concerns.
 */
import { useState, type JSX } from 'react';
import Message from '@arco-design/web-react/es/Message';
import Modal from '@arco-design/web-react/es/Modal';
import IconUpload from '@arco-design/web-react/icon/react-icon/IconUpload';
import { useTranslation } from 'react-i18next';
import { TSL_MAX_BYTES, type TslImportBody, type TslImportResult } from '../../../server/contract/thing-model.ts';
import { FileUpload } from '../../components/FileUpload.tsx';
import { ApiError } from '../../lib/api-client.ts';
import { errorMessage } from '../../lib/error-text.ts';
import { problemText } from '../../lib/form-rules.ts';
import { importTsl } from './thingModelApi.ts';
import { importProblems, parseTsl, type ImportProblem } from './tslImport.ts';

export interface TslImportButtonProps {
  deviceProfileId: string;
  onImported: (result: TslImportResult) => void;
}

export function TslImportButton({ deviceProfileId, onImported }: TslImportButtonProps): JSX.Element {
  const { t } = useTranslation(['thingModel', 'errors']);
  const [problems, setProblems] = useState<{ title: string; list: ImportProblem[] } | null>(null);

  const send = async (body: TslImportBody): Promise<void> => {
    try {
      const result = await importTsl(deviceProfileId, body);
      Message.success(t('import.done', { created: result.created, updated: result.updated, removed: result.removed }));
      onImported(result);
    } catch (err) {
      const details = err instanceof ApiError ? err.body?.details : undefined;
      if (details?.length) setProblems({ title: errorMessage(err), list: importProblems(details, body) });
      else Message.error(errorMessage(err));
    }
  };

  const take = async (file: File): Promise<void> => {
    const parsed = parseTsl(await file.text());
    if (!parsed.ok) {
      Message.error(t('import.notJson'));
      return;
    }
    // Replacing the draft removes what the file lacks: the user says yes first.
    await new Promise<void>((resolve) => {
      Modal.confirm({
        title: t('import.confirmTitle'),
        content: t('import.confirmContent', { name: file.name, ...parsed.counts }),
        okText: t('import.confirmOk'),
        cancelText: t('import.cancel'),
        okButtonProps: { ...({ 'data-testid': 'tm-import-confirm' } as object) },
        onOk: () => send(parsed.body),
        afterClose: resolve,
      });
    });
  };

  const where = (p: ImportProblem): string => {
    if (!p.group) return p.path || t('import.file');
    const entry = t('import.entry', { group: t(`functionType.${p.group}`), number: (p.index ?? 0) + 1 });
    return [entry, p.identifier ? `(${p.identifier})` : ''].filter(Boolean).join(' ');
  };

  return (
    <>
      <FileUpload accept={['json']} maxBytes={TSL_MAX_BYTES} onFile={take} testId="tm-import-file">
        <IconUpload /> {t('import.button')}
      </FileUpload>
      <Modal
        visible={problems !== null}
        title={t('import.refusedTitle')}
        onCancel={() => setProblems(null)}
        onOk={() => setProblems(null)}
        hideCancel
        okText={t('import.close')}
        style={{ width: 640, maxWidth: 'calc(100vw - 32px)' }}
      >
        <p data-testid="tm-import-refused">{problems?.title}</p>
        <ol className="ec-tm-import-errors" data-testid="tm-import-problems">
          {problems?.list.map((p, i) => (
            <li key={i}>
              <strong>{where(p)}</strong>
              {p.group && p.path ? (
                <>
                  {' '}
                  <code>{p.path}</code>
                </>
              ) : null}
              {`: ${problemText({ key: p.key, params: p.params })}`}
            </li>
          ))}
        </ol>
      </Modal>
    </>
  );
}
