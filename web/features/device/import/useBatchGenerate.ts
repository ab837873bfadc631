/** The state of the batch generation wizard (BatchGenerateFlow): the step, the checked values, the run. */
import { useEffect, useState } from 'react';
import type { FormInstance } from '@arco-design/web-react/es/Form';
import type { BatchResult } from '../../../../server/contract/device-import.ts';
import type { ProductOption } from '../../../../server/contract/product.ts';
import { errorMessage, serverFieldErrors } from '../../../lib/error-text.ts';
import { generateBatch } from '../deviceApi.ts';
import type { DeviceTargetValues } from '../DeviceTargetFields.tsx';

export interface GenerateValues extends DeviceTargetValues {
  count: number;
  aliasPrefix: string;
}

export const Step = { Basic: 0, Generate: 1, Finally: 2 } as const;
export type Step = (typeof Step)[keyof typeof Step];
const formFields = ['deviceProfileId', 'organizationId', 'gatewayId', 'count', 'aliasPrefix'] as const;

export interface BatchGenerate {
  step: Step;
  setStep: (step: Step) => void;
  values: GenerateValues | null;
  setTouched: (touched: boolean) => void;
  running: boolean;
  failure: string | null;
  result: BatchResult | null;
  /** The product of the checked values. */
  product: ProductOption | undefined;
  toGenerate: () => Promise<void>;
  generate: () => Promise<void>;
  again: () => void;
}

export function useBatchGenerate(opts: {
  form: FormInstance<GenerateValues>;
  products: ProductOption[];
  onDirty: (dirty: boolean) => void;
  onCreated: () => void;
}): BatchGenerate {
  const { form, products, onDirty, onCreated } = opts;
  const [step, setStep] = useState<Step>(Step.Basic);
  const [values, setValues] = useState<GenerateValues | null>(null);
  const [touched, setTouched] = useState(false);
  const [running, setRunning] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [result, setResult] = useState<BatchResult | null>(null);

  useEffect(() => onDirty(touched && result === null), [touched, result, onDirty]);

  const product = products.find((p) => p.id === values?.deviceProfileId);

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

  const again = (): void => {
    setResult(null);
    setTouched(false);
    setStep(Step.Basic);
  };

  return { step, setStep, values, setTouched, running, failure, result, product, toGenerate, generate, again };
}
