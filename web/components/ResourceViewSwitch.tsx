/** The table/card toggle of a ResourceTable. */
import type { JSX } from 'react';
import Radio from '@arco-design/web-react/es/Radio';
import IconApps from '@arco-design/web-react/icon/react-icon/IconApps';
import IconList from '@arco-design/web-react/icon/react-icon/IconList';
import { useTranslation } from 'react-i18next';

export type ResourceView = 'table' | 'card';

export function ResourceViewSwitch({ view, testId, onChange }: { view: ResourceView; testId: string; onChange: (view: ResourceView) => void }): JSX.Element {
  const { t } = useTranslation('table');
  return (
    <Radio.Group type="button" value={view} aria-label={t('viewMode')} onChange={onChange}>
      <Radio value="table" aria-label={t('viewTable')} title={t('viewTable')} data-testid={`${testId}-view-table`}>
        <IconList />
      </Radio>
      <Radio value="card" aria-label={t('viewCard')} title={t('viewCard')} data-testid={`${testId}-view-card`}>
        <IconApps />
      </Radio>
    </Radio.Group>
  );
}
