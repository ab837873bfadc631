/**
 * "Batch upload": select file (a .csv or .xlsx of at most 5 MB goes to `import/preview`) → basic info
 * (product, organization, gateway, public) → column type (which column feeds which field) →
 * create entity (`import/commit`, with progress) → finally (created count, rejected rows with
 * reasons and their file). Every step stays mounted so going back keeps what was entered.
 */
import type { JSX } from 'react';
import Alert from '@arco-design/web-react/es/Alert';
import Button from '@arco-design/web-react/es/Button';
import Form from '@arco-design/web-react/es/Form';
import Switch from '@arco-design/web-react/es/Switch';
import { useTranslation } from 'react-i18next';
import type { ProductOption } from '../../../../server/contract/product.ts';
import { organizationName, useOrganizationTree } from '../../organization/organizationTree.ts';
import { DeviceTargetFields } from '../DeviceTargetFields.tsx';
import type { Loaded } from '../useDeviceOptions.ts';
import { mappingProblems } from '../importMapping.ts';
import { ColumnMappingStep } from './ColumnMappingStep.tsx';
import { ImportCreateStep } from './ImportCreateStep.tsx';
import { ImportFileStep } from './ImportFileStep.tsx';
import { ImportResultStep } from './ImportResultStep.tsx';
import { expectedImportMs, useEasedProgress } from './importProgress.ts';
import { Step, useCsvImport, type BasicValues } from './useCsvImport.ts';
import { useDefaultProduct } from './useDefaultProduct.ts';
import { WizardSteps } from './WizardSteps.tsx';

export interface FlowProps {
  products: Loaded<ProductOption>;
  onDirty: (dirty: boolean) => void;
  onCreated: () => void;
  onDone: () => void;
}

const steps = ['selectFile', 'basicInfo', 'columnType', 'createEntity', 'finally'] as const;

export function CsvImportFlow({ products, onDirty, onCreated, onDone }: FlowProps): JSX.Element {
  const { t } = useTranslation(['deviceImport', 'common', 'device']);
  const [form] = Form.useForm<BasicValues>();
  const wizard = useCsvImport({ form, products: products.items, onDirty, onCreated });
  const { step, setStep, preview, choice, basic, result } = wizard;
  const { tree } = useOrganizationTree();
  const percent = useEasedProgress(wizard.committing, expectedImportMs(preview?.rowCount ?? 0));

  useDefaultProduct(form, products.items);

  const problems = choice ? mappingProblems(choice) : [];
  const product = products.items.find((p) => p.id === basic?.deviceProfileId);

  return (
    <div className="ec-wizard" data-testid="import-csv">
      <WizardSteps current={step} titles={steps.map((k) => t(`steps.${k}`))} testId="import-steps" />

      <ImportFileStep
        hidden={step !== Step.File}
        preview={preview}
        fileError={wizard.fileError}
        onFile={wizard.chooseFile}
        onRefuse={(message) => wizard.setFileError(message)}
        onNext={() => setStep(Step.Basic)}
      />

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
          <Button type="primary" onClick={() => void wizard.toColumns()} data-testid="import-next-basic">
            {t('common:next')}
          </Button>
        </div>
      </section>

      <section hidden={step !== Step.Columns} className="ec-wizard__body" aria-label={t('steps.columnType')}>
        {preview && choice ? <ColumnMappingStep preview={preview} choice={choice} problems={problems} onChange={wizard.setChoice} /> : null}
        <div className="ec-wizard__footer">
          <Button onClick={() => setStep(Step.Basic)}>{t('common:previous')}</Button>
          <Button type="primary" disabled={problems.length > 0} onClick={() => setStep(Step.Create)} data-testid="import-next-columns">
            {t('common:next')}
          </Button>
        </div>
      </section>

      <ImportCreateStep
        hidden={step !== Step.Create}
        preview={preview}
        choice={choice}
        productName={product?.name}
        organizationName={organizationName(tree, basic?.organizationId)}
        committing={wizard.committing}
        percent={percent}
        commitError={wizard.commitError}
        onPrevious={() => setStep(Step.Columns)}
        onStartOver={wizard.startOver}
        onCommit={() => void wizard.commit()}
      />

      <section hidden={step !== Step.Finally} className="ec-wizard__body" aria-label={t('steps.finally')}>
        {result && preview ? <ImportResultStep result={result} preview={preview} /> : null}
        <div className="ec-wizard__footer">
          <Button onClick={wizard.startOver} data-testid="import-another">
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
