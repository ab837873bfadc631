/**
 * "Automatically generated": basic info (product, generate count 1–1000, device alias prefix,
 * organization, gateway) → auto generate (`batch`, with progress) → finally (the devices with
 * their tokens, and their CSV of name, alias and token for factory provisioning).
 */
import type { JSX } from 'react';
import Alert from '@arco-design/web-react/es/Alert';
import Button from '@arco-design/web-react/es/Button';
import Form from '@arco-design/web-react/es/Form';
import Input from '@arco-design/web-react/es/Input';
import InputNumber from '@arco-design/web-react/es/InputNumber';
import { useTranslation } from 'react-i18next';
import { BATCH_ALIAS_PREFIX_MAX, BATCH_MAX, BATCH_MIN } from '../../../../server/contract/device-import.ts';
import { batchCountProblem } from '../../../../server/contract/rules/device.ts';
import { FormError } from '../../../components/FormError.tsx';
import { problemRule } from '../../../lib/form-rules.ts';
import { DeviceTargetFields } from '../DeviceTargetFields.tsx';
import type { FlowProps } from './CsvImportFlow.tsx';
import { GeneratedDevices } from './GeneratedDevices.tsx';
import { expectedImportMs, useEasedProgress } from './importProgress.ts';
import { Step, useBatchGenerate, type GenerateValues } from './useBatchGenerate.ts';
import { WizardProgress } from './WizardProgress.tsx';
import { useDefaultProduct } from './useDefaultProduct.ts';
import { WizardSteps } from './WizardSteps.tsx';

const steps = ['basicInfo', 'autoGenerate', 'finally'] as const;

export function BatchGenerateFlow({ products, onDirty, onCreated, onDone }: FlowProps): JSX.Element {
  const { t } = useTranslation(['deviceImport', 'common', 'errors']);
  const [form] = Form.useForm<GenerateValues>();
  const wizard = useBatchGenerate({ form, products: products.items, onDirty, onCreated });
  const { step, setStep, values, running, result } = wizard;
  const percent = useEasedProgress(running, expectedImportMs(values?.count ?? 0));
  const prefix = (Form.useWatch('aliasPrefix', form) as string | undefined) ?? '';

  useDefaultProduct(form, products.items);

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
          onValuesChange={() => wizard.setTouched(true)}
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
          <Button type="primary" onClick={() => void wizard.toGenerate()} data-testid="generate-next">
            {t('common:next')}
          </Button>
        </div>
      </section>

      <section hidden={step !== Step.Generate} className="ec-wizard__body" aria-label={t('steps.autoGenerate')}>
        <Alert
          type="info"
          className="ec-wizard__note"
          content={<span data-testid="generate-summary">{t('generate.summary', { count: values?.count ?? 0, product: wizard.product?.name ?? '' })}</span>}
        />
        <WizardProgress running={running} percent={percent} label={t('generate.running', { count: values?.count ?? 0 })} testId="generate-progress" />
        <FormError message={wizard.failure} testId="generate-error" />
        <div className="ec-wizard__footer">
          <Button onClick={() => setStep(Step.Basic)} disabled={running}>
            {t('common:previous')}
          </Button>
          <Button type="primary" loading={running} onClick={() => void wizard.generate()} data-testid="generate-start">
            {t('generate.start')}
          </Button>
        </div>
      </section>

      <section hidden={step !== Step.Finally} className="ec-wizard__body" aria-label={t('steps.finally')}>
        {result ? <GeneratedDevices result={result} /> : null}
        <div className="ec-wizard__footer">
          <Button onClick={wizard.again} data-testid="generate-again">
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

