/**
 * "Batch upload": select file (a .csv or .xlsx of at most 5 MB goes to `import/preview`) → basic info
 * (product, organization, gateway, public) → column type (which column feeds which field) →
 * create entity (`import/commit`, with progress) → finally (created count, rejected rows with
 * reasons and their file). Every step stays mounted so going back keeps what was entered.
 */
import { useEffect, useState, type JSX } from 'react';
import Alert from '@arco-design/web-react/es/Alert';
import Button from '@arco-design/web-react/es/Button';
import Descriptions from '@arco-design/web-react/es/Descriptions';
import Form from '@arco-design/web-react/es/Form';
import Space from '@arco-design/web-react/es/Space';
import Switch from '@arco-design/web-react/es/Switch';
import IconDownload from '@arco-design/web-react/icon/react-icon/IconDownload';
import IconFile from '@arco-design/web-react/icon/react-icon/IconFile';
import { useTranslation } from 'react-i18next';
import { IMPORT_MAX_ROWS, importFormats, type ImportPreview, type ImportResult } from '../../../../server/contract/device-import.ts';
import type { ProductOption } from '../../../../server/contract/product.ts';
import { UPLOAD_MAX_BYTES } from '../../../../server/contract/validation.ts';
import { FileUpload } from '../../../components/FileUpload.tsx';
import { formatBytes } from '../../../components/file-check.ts';
import { FormError } from '../../../components/FormError.tsx';
import { organizationName, useOrganizationTree } from '../../organization/organizationTree.ts';
import { errorMessage } from '../../../lib/error-text.ts';
import { csvBlob, saveBlob } from '../../../lib/download.ts';
import { commitImport, previewImport } from '../deviceApi.ts';
import { DeviceTargetFields, type DeviceTargetValues } from '../DeviceTargetFields.tsx';
import type { Loaded } from '../useDeviceOptions.ts';
import { commitMapping, mappingProblems, mappingTargets, suggestMapping, type MappingChoice } from '../importMapping.ts';
import { ColumnMappingStep } from './ColumnMappingStep.tsx';
import { ImportResultStep } from './ImportResultStep.tsx';
import { expectedImportMs, useEasedProgress } from './importProgress.ts';
import { WizardProgress } from './WizardProgress.tsx';
import { WizardSteps } from './WizardSteps.tsx';

interface BasicValues extends DeviceTargetValues {
  isPublic: boolean;
}

export interface FlowProps {
  products: Loaded<ProductOption>;
  onDirty: (dirty: boolean) => void;
  onCreated: () => void;
  onDone: () => void;
}

const Step = { File: 0, Basic: 1, Columns: 2, Create: 3, Finally: 4 } as const;
type Step = (typeof Step)[keyof typeof Step];

export function CsvImportFlow({ products, onDirty, onCreated, onDone }: FlowProps): JSX.Element {
  const { t } = useTranslation(['deviceImport', 'common', 'device']);
  const [form] = Form.useForm<BasicValues>();
  const [step, setStep] = useState<Step>(Step.File);
  const [preview, setPreview] = useState<ImportPreview | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [basic, setBasic] = useState<BasicValues | null>(null);
  const [choice, setChoice] = useState<MappingChoice | null>(null);
  const [committing, setCommitting] = useState(false);
  const [commitError, setCommitError] = useState<string | null>(null);
  const [result, setResult] = useState<ImportResult | null>(null);
  const { tree } = useOrganizationTree();
  const percent = useEasedProgress(committing, expectedImportMs(preview?.rowCount ?? 0));

  useEffect(() => onDirty(preview !== null && result === null), [preview, result, onDirty]);

  const defaultProduct = products.items.find((p) => p.isDefault)?.id;
  useEffect(() => {
    if (defaultProduct && !form.getFieldValue('deviceProfileId')) form.setFieldValue('deviceProfileId', defaultProduct);
  }, [defaultProduct, form]);

  const chooseFile = async (file: File): Promise<void> => {
    setFileError(null);
    try {
      const next = await previewImport(file);
      setPreview(next);
      setChoice(suggestMapping(next));
      setResult(null);
      setCommitError(null);
    } catch (err) {
      setFileError(errorMessage(err));
    }
  };

  const downloadTemplate = (): void => {
    const header = mappingTargets.map((target) => t(`targets.${target}`));
    saveBlob(csvBlob([header]), t('file.templateFile'));
  };

  const toColumns = async (): Promise<void> => {
    try {
      setBasic(await form.validate());
      setStep(Step.Columns);
    } catch {
      // the form shows what is missing
    }
  };

  const commit = async (): Promise<void> => {
    if (!preview || !basic || !choice) return;
    const product = products.items.find((p) => p.id === basic.deviceProfileId);
    setCommitting(true);
    setCommitError(null);
    try {
      const { mapping, credentialsColumn } = commitMapping(choice);
      const answer = await commitImport({
        importId: preview.importId,
        mapping,
        credentialsColumn,
        defaults: {
          deviceProfileId: basic.deviceProfileId,
          organizationId: basic.organizationId ?? null,
          gatewayId: product?.deviceType === 'SENSOR' ? (basic.gatewayId ?? null) : null,
          isPublic: !!basic.isPublic,
        },
      });
      setResult(answer);
      setStep(Step.Finally);
      if (answer.created > 0) onCreated();
    } catch (err) {
      setCommitError(errorMessage(err));
    } finally {
      setCommitting(false);
    }
  };

  const startOver = (): void => {
    setPreview(null);
    setChoice(null);
    setResult(null);
    setCommitError(null);
    setFileError(null);
    setStep(Step.File);
  };

  const problems = choice ? mappingProblems(choice) : [];
  const product = products.items.find((p) => p.id === basic?.deviceProfileId);
  const steps = ['selectFile', 'basicInfo', 'columnType', 'createEntity', 'finally'] as const;

  return (
    <div className="ec-wizard" data-testid="import-csv">
      <WizardSteps current={step} titles={steps.map((k) => t(`steps.${k}`))} testId="import-steps" />

      <section hidden={step !== Step.File} className="ec-wizard__body" aria-label={t('steps.selectFile')}>
        <FileUpload
          variant="drop"
          accept={importFormats}
          maxBytes={UPLOAD_MAX_BYTES}
          onFile={chooseFile}
          onRefuse={(message) => setFileError(message)}
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
          <Button type="primary" disabled={!preview} onClick={() => setStep(Step.Basic)} data-testid="import-next-file">
            {t('common:next')}
          </Button>
        </div>
      </section>

      <section hidden={step !== Step.Basic} className="ec-wizard__body" aria-label={t('steps.basicInfo')}>
        <Alert type="info" className="ec-wizard__note" content={t('basic.hint')} />
        <Form<BasicValues> form={form} layout="vertical" initialValues={{ organizationId: null, gatewayId: null, isPublic: false }} className="ec-wizard__form">
          <DeviceTargetFields form={form} products={products.items} productsLoading={products.loading} testId="import-basic" />
          <Form.Item field="isPublic" label={t('basic.isPublic')} triggerPropName="checked">
            <Switch data-testid="import-basic-public" />
          </Form.Item>
        </Form>
        <div className="ec-wizard__footer">
          <Button onClick={() => setStep(Step.File)}>{t('common:previous')}</Button>
          <Button type="primary" onClick={() => void toColumns()} data-testid="import-next-basic">
            {t('common:next')}
          </Button>
        </div>
      </section>

      <section hidden={step !== Step.Columns} className="ec-wizard__body" aria-label={t('steps.columnType')}>
        {preview && choice ? <ColumnMappingStep preview={preview} choice={choice} problems={problems} onChange={setChoice} /> : null}
        <div className="ec-wizard__footer">
          <Button onClick={() => setStep(Step.Basic)}>{t('common:previous')}</Button>
          <Button type="primary" disabled={problems.length > 0} onClick={() => setStep(Step.Create)} data-testid="import-next-columns">
            {t('common:next')}
          </Button>
        </div>
      </section>

      <section hidden={step !== Step.Create} className="ec-wizard__body" aria-label={t('steps.createEntity')}>
        <Alert type="info" className="ec-wizard__note" content={t('create.hint')} />
        {preview && choice ? (
          <Descriptions
            column={1}
            border
            labelStyle={{ width: 160 }}
            data={[
              { label: t('create.file'), value: preview.fileName },
              { label: t('create.rows'), value: <span data-testid="import-create-rows">{preview.rowCount}</span> },
              { label: t('create.product'), value: product?.name ?? '—' },
              { label: t('create.organization'), value: organizationName(tree, basic?.organizationId) ?? '—' },
              {
                label: t('create.fields'),
                value: mappingTargets
                  .filter((target) => target !== 'token' && choice[target] !== null)
                  .map((target) => t(`targets.${target}`))
                  .join(', '),
              },
              {
                label: t('create.token'),
                value: choice.token === null ? t('create.tokenGenerated') : t('create.tokenFromColumn', { column: preview.columns[choice.token] ?? '' }),
              },
            ]}
          />
        ) : null}
        <WizardProgress running={committing} percent={percent} label={t('create.running', { rows: preview?.rowCount ?? 0 })} testId="import-progress" />
        <FormError message={commitError} testId="import-commit-error" />
        <div className="ec-wizard__footer">
          <Button onClick={() => setStep(Step.Columns)} disabled={committing}>
            {t('common:previous')}
          </Button>
          <Space>
            {commitError ? (
              <Button onClick={startOver} data-testid="import-start-over">
                {t('create.startOver')}
              </Button>
            ) : null}
            <Button type="primary" loading={committing} onClick={() => void commit()} data-testid="import-commit">
              {t('create.start')}
            </Button>
          </Space>
        </div>
      </section>

      <section hidden={step !== Step.Finally} className="ec-wizard__body" aria-label={t('steps.finally')}>
        {result && preview ? <ImportResultStep result={result} preview={preview} /> : null}
        <div className="ec-wizard__footer">
          <Button onClick={startOver} data-testid="import-another">
            {t('finally.another')}
          </Button>
          <Button type="primary" onClick={onDone} data-testid="import-done">
            {t('finally.done')}
          </Button>
        </div>
      </section>
    </div>
  );
}
