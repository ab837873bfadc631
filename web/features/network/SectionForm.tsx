/**
 * One tab of the network page: the machine's read-only facts, the section's fields, and "Review
 * changes", which asks the server for the plan (its rules refuse beside the fields) before the
 * apply dialog opens.
 */
import { useEffect, useState, type JSX } from 'react';
import Button from '@arco-design/web-react/es/Button';
import Descriptions from '@arco-design/web-react/es/Descriptions';
import Form from '@arco-design/web-react/es/Form';
import { useTranslation } from 'react-i18next';
import type { NetworkChange, NetworkSettingsBody, NetworkState } from '../../../server/contract/network.ts';
import { FormError } from '../../components/FormError.tsx';
import { ApiError } from '../../lib/api-client.ts';
import { errorKeyText, errorMessage } from '../../lib/error-text.ts';
import { useLeaveGuard } from '../../lib/leave-guard.ts';
import { CellularFields } from './CellularFields.tsx';
import { InterfaceFields } from './InterfaceFields.tsx';
import { WifiFields } from './WifiFields.tsx';
import { bodyOf, sectionFieldErrors, valuesOf, type Section, type SectionValues } from './network-form.ts';
import { planNetwork } from './networkApi.ts';

export interface SectionFormProps {
  section: Section;
  state: NetworkState;
  /** A change is awaiting confirmation: no new one until it is settled. */
  locked: boolean;
  onPlanned: (body: NetworkSettingsBody, changes: NetworkChange[]) => void;
}

function facts(state: NetworkState, section: Section, t: (key: 'field.interfaceName' | 'field.macAddress' | 'field.imei' | 'field.iccid' | 'field.signal' | 'field.unknown') => string, dbm: (n: number) => string) {
  const or = (v: string): string => v || t('field.unknown');
  if (section === 'cellular') {
    const { imei, iccid, signalDbm } = state.cellular;
    return [
      { label: t('field.imei'), value: or(imei) },
      { label: t('field.iccid'), value: or(iccid) },
      { label: t('field.signal'), value: signalDbm === null ? t('field.unknown') : dbm(signalDbm) },
    ];
  }
  const iface = state[section];
  return [
    { label: t('field.interfaceName'), value: or(iface.interfaceName) },
    { label: t('field.macAddress'), value: <span data-testid={`network-${section}-mac`}>{or(iface.macAddress)}</span> },
  ];
}

export function SectionForm({ section, state, locked, onPlanned }: SectionFormProps): JSX.Element {
  const { t } = useTranslation('network');
  const [form] = Form.useForm<SectionValues>();
  const [planning, setPlanning] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [dirty, setDirty] = useState(false);
  useLeaveGuard(dirty);

  useEffect(() => {
    form.resetFields();
    form.setFieldsValue(valuesOf(state, section));
    setDirty(false);
  }, [form, state, section]);

  const review = async (values: SectionValues): Promise<void> => {
    setPlanning(true);
    setFailure(null);
    // The server's refusals of the last review are set by hand, so they go by hand: fields without
    // a client rule would keep them after being corrected.
    form.setFields(Object.fromEntries(Object.keys(values).map((field) => [field, { value: values[field as keyof SectionValues], error: undefined }])));
    const body = bodyOf(section, values);
    try {
      const { changes } = await planNetwork(body);
      onPlanned(body, changes);
    } catch (err) {
      const byField = sectionFieldErrors(err instanceof ApiError ? err.body?.details : undefined, section);
      const named = Object.entries(byField).filter(([field]) => field in values);
      if (named.length > 0) form.setFields(Object.fromEntries(named.map(([field, key]) => [field, { value: values[field as keyof SectionValues], error: { message: errorKeyText(key) } }])));
      else setFailure(errorMessage(err));
    } finally {
      setPlanning(false);
    }
  };

  return (
    <div data-testid={`network-section-${section}`}>
      <Descriptions column={3} data={facts(state, section, t, (n) => t('field.signalDbm', { dbm: n }))} className="ec-network__facts" />
      <Form<SectionValues> form={form} layout="vertical" className="ec-network__form" onSubmit={(v) => void review(v)} onValuesChange={() => setDirty(true)} disabled={locked || planning}>
        {(section === 'lan' || section === 'wan') && <InterfaceFields section={section} form={form} />}
        {section === 'wifi' && <WifiFields form={form} passwordSet={state.wifi.passwordSet} />}
        {section === 'cellular' && <CellularFields pinSet={state.cellular.pinSet} />}
        <FormError message={failure} testId={`network-${section}-error`} />
        <Button type="primary" htmlType="submit" loading={planning} data-testid={`network-${section}-review`}>
          {t('action.review')}
        </Button>
      </Form>
    </div>
  );
}
