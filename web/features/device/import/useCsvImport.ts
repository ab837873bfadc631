/** The state of the CSV import wizard (CsvImportFlow): the step, the previewed file, the choices, the commit. */
import { useEffect, useState } from 'react';
import type { FormInstance } from '@arco-design/web-react/es/Form';
import type { ImportPreview, ImportResult } from '../../../../server/contract/device-import.ts';
import type { ProductOption } from '../../../../server/contract/product.ts';
import { errorMessage } from '../../../lib/error-text.ts';
import { commitImport, previewImport } from '../deviceApi.ts';
import type { DeviceTargetValues } from '../DeviceTargetFields.tsx';
import { commitMapping, suggestMapping, type MappingChoice } from '../importMapping.ts';

export interface BasicValues extends DeviceTargetValues {
  isPublic: boolean;
}

export const Step = { File: 0, Basic: 1, Columns: 2, Create: 3, Finally: 4 } as const;
export type Step = (typeof Step)[keyof typeof Step];

export interface CsvImport {
  step: Step;
  setStep: (step: Step) => void;
  preview: ImportPreview | null;
  fileError: string | null;
  setFileError: (message: string | null) => void;
  basic: BasicValues | null;
  choice: MappingChoice | null;
  setChoice: (choice: MappingChoice) => void;
  committing: boolean;
  commitError: string | null;
  result: ImportResult | null;
  chooseFile: (file: File) => Promise<void>;
  toColumns: () => Promise<void>;
  commit: () => Promise<void>;
  startOver: () => void;
}

export function useCsvImport(opts: {
  form: FormInstance<BasicValues>;
  products: ProductOption[];
  onDirty: (dirty: boolean) => void;
  onCreated: () => void;
}): CsvImport {
  const { form, products, onDirty, onCreated } = opts;
  const [step, setStep] = useState<Step>(Step.File);
  const [preview, setPreview] = useState<ImportPreview | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [basic, setBasic] = useState<BasicValues | null>(null);
  const [choice, setChoice] = useState<MappingChoice | null>(null);
  const [committing, setCommitting] = useState(false);
  const [commitError, setCommitError] = useState<string | null>(null);
  const [result, setResult] = useState<ImportResult | null>(null);

  useEffect(() => onDirty(preview !== null && result === null), [preview, result, onDirty]);

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
    const product = products.find((p) => p.id === basic.deviceProfileId);
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

  return { step, setStep, preview, fileError, setFileError, basic, choice, setChoice, committing, commitError, result, chooseFile, toColumns, commit, startOver };
}
