/**
 * "Automatically generated": basic info (product, generate count 1–1000, device alias prefix,
 * organization, gateway) → auto generate (`batch`, with progress) → finally (the devices with
 * their tokens, and their CSV of name, alias and token for factory provisioning).
 */
import { useEffect, useState, type JSX } from 'react';
import Alert from '@arco-design/web-react/es/Alert';
import Button from '@arco-design/web-react/es/Button';
import Form from '@arco-design/web-react/es/Form';
import Input from '@arco-design/web-react/es/Input';
import InputNumber from '@arco-design/web-react/es/InputNumber';
import Table from '@arco-design/web-react/es/Table';
import IconDownload from '@arco-design/web-react/icon/react-icon/IconDownload';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { BATCH_ALIAS_PREFIX_MAX, BATCH_MAX, BATCH_MIN, type BatchItem, type BatchResult } from '../../../../server/contract/device-import.ts';
import { batchCountProblem } from '../../../../server/contract/rules/device.ts';
import { FormError } from '../../../components/FormError.tsx';
import { errorMessage, serverFieldErrors } from '../../../lib/error-text.ts';
import { saveBlob } from '../../../lib/download.ts';
import { problemRule } from '../../../lib/form-rules.ts';
import { fetchBatchCsv, generateBatch } from '../deviceApi.ts';
import { DeviceTargetFields, type DeviceTargetValues } from '../DeviceTargetFields.tsx';
import type { FlowProps } from './CsvImportFlow.tsx';
import { expectedImportMs, useEasedProgress } from './importProgress.ts';
import { WizardProgress } from './WizardProgress.tsx';
import { WizardSteps } from './WizardSteps.tsx';
import { ResultSummary } from './ResultSummary.tsx';

interface GenerateValues extends DeviceTargetValues {
  count: number;
  aliasPrefix: string;
}

const Step = { Basic: 0, Generate: 1, Finally: 2 } as const;
type Step = (typeof Step)[keyof typeof Step];
const formFields = ['deviceProfileId', 'organizationId', 'gatewayId', 'count', 'aliasPrefix'] as const;

export function BatchGenerateFlow({ products, onDirty, onCreated, onDone }: FlowProps): JSX.Element {
  const { t } = useTranslation(['deviceImport', 'common', 'errors']);
  const [form] = Form.useForm<GenerateValues>();
  const [step, setStep] = useState<Step>(Step.Basic);
  const [values, setValues] = useState<GenerateValues | null>(null);
  const [touched, setTouched] = useState(false);
  const [running, setRunning] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [result, setResult] = useState<BatchResult | null>(null);
  const [downloading, setDownloading] = useState(false);
  const percent = useEasedProgress(running, expectedImportMs(values?.count ?? 0));
  const prefix = (Form.useWatch('aliasPrefix', form) as string | undefined) ?? '';

  useEffect(() => onDirty(touched && result === null), [touched, result, onDirty]);

  const defaultProduct = products.items.find((p) => p.isDefault)?.id;
  useEffect(() => {
    if (defaultProduct && !form.getFieldValue('deviceProfileId')) form.setFieldValue('deviceProfileId', defaultProduct);
  }, [defaultProduct, form]);

  const product = products.items.find((p) => p.id === values?.deviceProfileId);

  const toGenerate = async (): Promise<void> => {
    try {
      setValues(await form.validate());
      setFailure(null);
      setStep(Step.Generate);
    } catch {
      // the form shows what is missing
    }
  };

  const generate = async (): Promise<void> => {
    if (!values) return;
    setRunning(true);
    setFailure(null);
    try {
      const answer = await generateBatch({
        deviceProfileId: values.deviceProfileId,
        count: values.count,
        aliasPrefix: values.aliasPrefix ? values.aliasPrefix : null,
        organizationId: values.organizationId ?? null,
        gatewayId: product?.deviceType === 'SENSOR' ? (values.gatewayId ?? null) : null,
      });
      setResult(answer);
      setStep(Step.Finally);
      onCreated();
    } catch (err) {
      const mapped = serverFieldErrors(err, values, formFields);
      if (mapped) {
        // A refusal about a basic-info field: back there, on the field.
        form.setFields(mapped as Parameters<typeof form.setFields>[0]);
        setStep(Step.Basic);
      } else setFailure(errorMessage(err));
    } finally {
      setRunning(false);
    }
  };

  const download = async (): Promise<void> => {
    if (!result) return;
    setDownloading(true);
    try {
      saveBlob(await fetchBatchCsv(result.batchId), t('generate.fileName', { time: dayjs().format('YYYYMMDD-HHmmss') }));
    } catch {
      // the client showed why
    } finally {
      setDownloading(false);
    }
  };

  const again = (): void => {
    setResult(null);
    setTouched(false);
    setStep(Step.Basic);
  };

  const steps = ['basicInfo', 'autoGenerate', 'finally'] as const;
  return (
    <div className="ec-wizard" data-testid="import-generate">
      <WizardSteps current={step} titles={steps.map((k) => t(`steps.${k}`))} testId="generate-steps" />

      <section hidden={step !== Step.Basic} className="ec-wizard__body" aria-label={t('steps.basicInfo')}>
        <Alert type="info" className="ec-wizard__note" content={t('generate.hint')} />
        <Form<GenerateValues>
          form={form}
          layout="vertical"
          className="ec-wizard__form"
          initialValues={{ count: 10, aliasPrefix: '', organizationId: null, gatewayId: null }}
          onValuesChange={() => setTouched(true)}
        >
          <DeviceTargetFields form={form} products={products.items} productsLoading={products.loading} testId="generate" />
          <Form.Item
            field="count"
            label={t('generate.count')}
            extra={t('generate.countHint', { max: BATCH_MAX })}
            rules={[problemRule(batchCountProblem)]}
          >
            <InputNumber min={BATCH_MIN} max={BATCH_MAX} precision={0} step={1} style={{ width: 200 }} data-testid="generate-count" />
          </Form.Item>
          <Form.Item
            field="aliasPrefix"
            label={t('generate.aliasPrefix')}
            extra={prefix ? t('generate.aliasExample', { first: `${prefix}1`, second: `${prefix}2` }) : t('generate.aliasPrefixHint')}
            rules={[{ maxLength: BATCH_ALIAS_PREFIX_MAX, message: t('errors:field.aliasPrefix') }]}
          >
            <Input maxLength={BATCH_ALIAS_PREFIX_MAX} showWordLimit autoComplete="off" data-testid="generate-alias-prefix" />
          </Form.Item>
        </Form>
        <div className="ec-wizard__footer">
          <span />
          <Button type="primary" onClick={() => void toGenerate()} data-testid="generate-next">
            {t('common:next')}
          </Button>
        </div>
      </section>

      <section hidden={step !== Step.Generate} className="ec-wizard__body" aria-label={t('steps.autoGenerate')}>
        <Alert
          type="info"
          className="ec-wizard__note"
          content={<span data-testid="generate-summary">{t('generate.summary', { count: values?.count ?? 0, product: product?.name ?? '' })}</span>}
        />
        <WizardProgress running={running} percent={percent} label={t('generate.running', { count: values?.count ?? 0 })} testId="generate-progress" />
        <FormError message={failure} testId="generate-error" />
        <div className="ec-wizard__footer">
          <Button onClick={() => setStep(Step.Basic)} disabled={running}>
            {t('common:previous')}
          </Button>
          <Button type="primary" loading={running} onClick={() => void generate()} data-testid="generate-start">
            {t('generate.start')}
          </Button>
        </div>
      </section>

      <section hidden={step !== Step.Finally} className="ec-wizard__body" aria-label={t('steps.finally')}>
        {result ? (
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
        ) : null}
        <div className="ec-wizard__footer">
          <Button onClick={again} data-testid="generate-again">
            {t('generate.again')}
          </Button>
          <Button type="primary" onClick={onDone} data-testid="generate-done">
            {t('generate.done')}
          </Button>
        </div>
      </section>
    </div>
  );
}

