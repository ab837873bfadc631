/**
 * The cloud's CA certificate in the cloud form: a `.pem`/`.crt`/`.cer` file read as text in the
 * browser (type, size and PEM shape checked here, parsed again by the server), the stored one
 * named with its validity, and a remove button. The form value is the new PEM, '' to remove the
 * stored one, or undefined to keep it (server/contract/cloud.ts, platformCaPem).
 */
import { useState, type JSX } from 'react';
import Button from '@arco-design/web-react/es/Button';
import Form from '@arco-design/web-react/es/Form';
import IconUpload from '@arco-design/web-react/icon/react-icon/IconUpload';
import { useTranslation } from 'react-i18next';
import { PLATFORM_CA_EXTENSIONS, PLATFORM_CA_MAX_BYTES, type CloudConfigView } from '../../../server/contract/cloud.ts';
import { cloudCaProblem } from '../../../server/contract/rules/cloud-ca.ts';
import { FileUpload } from '../../components/FileUpload.tsx';
import { acceptAttribute, formatBytes } from '../../components/file-check.ts';
import { formatDateTime } from '../../lib/date-format.ts';
import { problemText } from '../../lib/form-rules.ts';

type StoredCa = NonNullable<CloudConfigView>['platformCa'];

interface CaInputProps {
  value?: string;
  onChange?: (value: string | undefined) => void;
  stored: StoredCa;
  testId: string;
}

function CaInput({ value, onChange, stored, testId }: CaInputProps): JSX.Element {
  const { t } = useTranslation('guide');
  const [name, setName] = useState<string | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const take = async (file: File): Promise<void> => {
    const text = await file.text();
    const found = cloudCaProblem(text);
    setRefusal(found ? problemText(found) : null);
    if (found) return;
    setName(file.name);
    onChange?.(text);
  };
  const chosen = value ? (name ?? '') : null;
  const kept = value === undefined && stored ? stored : null;
  return (
    <div className="ec-cloud-ca">
      <FileUpload
        accept={PLATFORM_CA_EXTENSIONS}
        maxBytes={PLATFORM_CA_MAX_BYTES}
        testId={testId}
        status={refusal ? 'error' : undefined}
        onFile={take}
        onRefuse={setRefusal}
        hint={t('cloud.caHint', { types: acceptAttribute(PLATFORM_CA_EXTENSIONS).replace(/,/g, ', '), size: formatBytes(PLATFORM_CA_MAX_BYTES) })}
      >
        <IconUpload />
        {t('cloud.caChoose')}
      </FileUpload>
      {refusal ? (
        <div className="ec-cloud-ca__error" role="alert" data-testid={`${testId}-error`}>
          {refusal}
        </div>
      ) : null}
      {chosen !== null || kept ? (
        <div className="ec-cloud-ca__current" data-testid={`${testId}-current`}>
          <span>{chosen !== null ? t('cloud.caChosen', { name: chosen }) : t('cloud.caStored', { subject: kept!.subject, validTo: formatDateTime(kept!.validTo) })}</span>
          <Button
            size="mini"
            type="text"
            status="danger"
            onClick={() => {
              setName(null);
              setRefusal(null);
              // Dropping a file chosen in this form goes back to the stored one; removing the stored one sends ''.
              onChange?.(chosen !== null ? undefined : '');
            }}
            data-testid={`${testId}-remove`}
          >
            {t('cloud.caRemove')}
          </Button>
        </div>
      ) : null}
    </div>
  );
}

/** The CA row of CloudFields; `stored` is what the gateway keeps (null: none). */
export function CloudCaField({ stored, testId }: { stored: StoredCa; testId: string }): JSX.Element {
  const { t } = useTranslation('guide');
  return (
    <Form.Item field="platformCaPem" label={t('cloud.ca')}>
      <CaInput stored={stored} testId={testId} />
    </Form.Item>
  );
}
