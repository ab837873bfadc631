/** Step 4 of the CSV import: what will be created, then the commit with its progress, error and start-over. */
import type { JSX } from 'react';
import Alert from '@arco-design/web-react/es/Alert';
import Button from '@arco-design/web-react/es/Button';
import Descriptions from '@arco-design/web-react/es/Descriptions';
import Space from '@arco-design/web-react/es/Space';
import { useTranslation } from 'react-i18next';
import type { ImportPreview } from '../../../../server/contract/device-import.ts';
import { FormError } from '../../../components/FormError.tsx';
import { mappingTargets, type MappingChoice } from '../importMapping.ts';
import { WizardProgress } from './WizardProgress.tsx';

export function ImportCreateStep(props: {
  hidden: boolean;
  preview: ImportPreview | null;
  choice: MappingChoice | null;
  productName: string | undefined;
  organizationName: string | undefined;
  committing: boolean;
  percent: number;
  commitError: string | null;
  onPrevious: () => void;
  onStartOver: () => void;
  onCommit: () => void;
}): JSX.Element {
  const { hidden, preview, choice, committing, commitError } = props;
  const { t } = useTranslation(['deviceImport', 'common', 'device']);
  return (
    <section hidden={hidden} className="ec-wizard__body" aria-label={t('steps.createEntity')}>
      <Alert type="info" className="ec-wizard__note" content={t('create.hint')} />
      {preview && choice ? (
        <Descriptions
          column={1}
          border
          labelStyle={{ width: 160 }}
          data={[
            { label: t('create.file'), value: preview.fileName },
            { label: t('create.rows'), value: <span data-testid="import-create-rows">{preview.rowCount}</span> },
            { label: t('create.product'), value: props.productName ?? '—' },
            { label: t('create.organization'), value: props.organizationName ?? '—' },
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
      <WizardProgress running={committing} percent={props.percent} label={t('create.running', { rows: preview?.rowCount ?? 0 })} testId="import-progress" />
      <FormError message={commitError} testId="import-commit-error" />
      <div className="ec-wizard__footer">
        <Button onClick={props.onPrevious} disabled={committing}>
          {t('common:previous')}
        </Button>
        <Space>
          {commitError ? (
            <Button onClick={props.onStartOver} data-testid="import-start-over">
              {t('create.startOver')}
            </Button>
          ) : null}
          <Button type="primary" loading={committing} onClick={props.onCommit} data-testid="import-commit">
            {t('create.start')}
          </Button>
        </Space>
      </div>
    </section>
  );
}
