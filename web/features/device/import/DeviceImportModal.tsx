/**
 * The import wizard: two tabs, "automatically generated" (batch generation) and
 * "batch upload" (CSV), each walking its steps of select file, basic info, column type, create
 * entity, auto generate and finally. Closing while a flow holds unfinished work asks first.
 */
import { useEffect, useMemo, useState, type JSX } from 'react';
import Tabs from '@arco-design/web-react/es/Tabs';
import { useTranslation } from 'react-i18next';
import { GuardedModal } from '../../../components/GuardedModal.tsx';
import { useProductOptions } from '../useDeviceOptions.ts';
import { BatchGenerateFlow } from './BatchGenerateFlow.tsx';
import { CsvImportFlow } from './CsvImportFlow.tsx';
import '../device.css';

export type ImportTab = 'generate' | 'csv';

export interface DeviceImportModalProps {
  initialTab: ImportTab;
  onClose: () => void;
  /** Devices were created (the list behind reloads). */
  onCreated: () => void;
}

export function DeviceImportModal({ initialTab, onClose, onCreated }: DeviceImportModalProps): JSX.Element {
  const { t } = useTranslation('deviceImport');
  return (
    <GuardedModal visible title={t('title')} width={920} onClose={onClose}>
      {({ setDirty, close }) => <WizardTabs initialTab={initialTab} setDirty={setDirty} onCreated={onCreated} onDone={close} />}
    </GuardedModal>
  );
}

interface WizardTabsProps {
  initialTab: ImportTab;
  setDirty: (dirty: boolean) => void;
  onCreated: () => void;
  onDone: () => void;
}

function WizardTabs({ initialTab, setDirty, onCreated, onDone }: WizardTabsProps): JSX.Element {
  const { t } = useTranslation('deviceImport');
  const [tab, setTab] = useState<ImportTab>(initialTab);
  const [dirty, setFlowDirty] = useState<Record<ImportTab, boolean>>({ generate: false, csv: false });
  const products = useProductOptions();

  useEffect(() => setDirty(dirty.generate || dirty.csv), [dirty, setDirty]);
  const report = useMemo(() => {
    const reporter = (flow: ImportTab) => (value: boolean) => setFlowDirty((d) => (d[flow] === value ? d : { ...d, [flow]: value }));
    return { generate: reporter('generate'), csv: reporter('csv') };
  }, []);

  return (
    <Tabs activeTab={tab} onChange={(key) => setTab(key as ImportTab)} className="ec-import-tabs" data-testid="import-tabs">
      <Tabs.TabPane key="generate" title={<span data-testid="import-tab-generate">{t('tabs.generate')}</span>}>
        <BatchGenerateFlow products={products} onDirty={report.generate} onCreated={onCreated} onDone={onDone} />
      </Tabs.TabPane>
      <Tabs.TabPane key="csv" title={<span data-testid="import-tab-csv">{t('tabs.csv')}</span>}>
        <CsvImportFlow products={products} onDirty={report.csv} onCreated={onCreated} onDone={onDone} />
      </Tabs.TabPane>
    </Tabs>
  );
}
