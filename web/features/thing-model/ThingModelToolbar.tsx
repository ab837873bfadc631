/** The thing model table's toolbar: function type filter, TSL view, TSL import, create. */
import type { JSX } from 'react';
import Button from '@arco-design/web-react/es/Button';
import Radio from '@arco-design/web-react/es/Radio';
import IconCode from '@arco-design/web-react/icon/react-icon/IconCode';
import IconPlus from '@arco-design/web-react/icon/react-icon/IconPlus';
import { useTranslation } from 'react-i18next';
import { functionTypes, type FunctionType } from '../../../server/contract/thing-model.ts';
import { TslImportButton } from './TslImportButton.tsx';

export type TypeFilter = FunctionType | 'all';

export interface ThingModelToolbarProps {
  filter: TypeFilter;
  onFilter: (filter: TypeFilter) => void;
  onTsl: () => void;
  deviceProfileId: string;
  onImported: () => void;
  onCreate: () => void;
}

export function ThingModelToolbar({ filter, onFilter, onTsl, deviceProfileId, onImported, onCreate }: ThingModelToolbarProps): JSX.Element {
  const { t } = useTranslation(['thingModel', 'table']);
  return (
    <span className="ec-tm-toolbar">
      <Radio.Group
        type="button"
        value={filter}
        onChange={(value: TypeFilter) => onFilter(value)}
        data-testid="tm-filter"
      >
        {(['all', ...functionTypes] as const).map((value) => (
          <Radio key={value} value={value} data-testid={`tm-filter-${value}`}>
            {value === 'all' ? t('table:all') : t(`functionType.${value}`)}
          </Radio>
        ))}
      </Radio.Group>
      <Button icon={<IconCode />} onClick={onTsl} data-testid="tm-tsl">
        {t('tsl.button')}
      </Button>
      <TslImportButton deviceProfileId={deviceProfileId} onImported={onImported} />
      <Button
        type="primary"
        icon={<IconPlus />}
        onClick={onCreate}
        data-testid="tm-create"
      >
        {t('create')}
      </Button>
    </span>
  );
}
