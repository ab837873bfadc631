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
import { modemStates, type ModemState, type NetworkChange, type NetworkSettingsBody, type NetworkState } from '../../../server/contract/network.ts';
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

type FactKey = 'field.interfaceName' | 'field.macAddress' | 'field.imei' | 'field.iccid' | 'field.signal' | 'field.unknown' | 'field.operator' | 'field.modemState';
interface FactText {
  t: (key: FactKey) => string;
  dbm: (n: number) => string;
  percent: (n: number) => string;
  modemState: (state: string) => string;
}

/** The modem's signal as ModemManager gives it: percent, dBm when signal polling reports one. */
function signalText(c: NetworkState['cellular'], text: FactText): string {
  const parts = [c.signalQuality === null ? '' : text.percent(c.signalQuality), c.signalDbm === null ? '' : text.dbm(c.signalDbm)].filter(Boolean);
  return parts.length ? parts.join(' · ') : text.t('field.unknown');
}

function facts(state: NetworkState, section: Section, text: FactText) {
  const { t } = text;
  const or = (v: string): string => v || t('field.unknown');
  if (section === 'cellular') {
    const c = state.cellular;
    return [
      { label: t('field.modemState'), value: <span data-testid="network-cellular-state">{c.modemState ? text.modemState(c.modemState) : t('field.unknown')}</span> },
      { label: t('field.imei'), value: <span data-testid="network-cellular-imei">{or(c.imei)}</span> },
      { label: t('field.iccid'), value: or(c.iccid) },
      { label: t('field.operator'), value: or(c.operator) },
      { label: t('field.signal'), value: signalText(c, text) },
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

  const factText: FactText = {
    t,
    dbm: (n) => t('field.signalDbm', { dbm: n }),
    percent: (n) => t('field.signalQuality', { percent: n }),
    // A state newer ModemManagers add shows as it is rather than as a missing key.
    modemState: (s) => ((modemStates as readonly string[]).includes(s) ? t(`modemState.${s as ModemState}`) : s),
  };

  return (
    <div data-testid={`network-section-${section}`}>
      <Descriptions column={3} data={facts(state, section, factText)} className="ec-network__facts" />
      <Form<SectionValues> form={form} layout="vertical" className="ec-network__form" onSubmit={(v) => void review(v)} onValuesChange={() => setDirty(true)} disabled={locked || planning}>
        {(section === 'lan' || section === 'wan') && <InterfaceFields section={section} form={form} poolNotApplied={state.applier === 'networkmanager'} />}
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
