/** The toolbar of a ResourceTable: bulk actions at the left; the page's buttons, the view switch, the column chooser and refresh at the right. */
import type { JSX, ReactNode } from 'react';
import Button from '@arco-design/web-react/es/Button';
import IconRefresh from '@arco-design/web-react/icon/react-icon/IconRefresh';
import { useTranslation } from 'react-i18next';
import type { ListController } from '../lib/use-list.ts';
import { ColumnChooser, type ColumnChooserProps } from './ColumnChooser.tsx';
import type { ColumnChoice } from './column-choice.ts';
import { ResourceBulkBar } from './ResourceBulkBar.tsx';
import { ResourceViewSwitch, type ResourceView } from './ResourceViewSwitch.tsx';

export function ResourceToolbar<T, F extends object>(props: {
  list: ListController<T, F>;
  testId: string;
  view: ResourceView;
  /** Absent when the table has no card view: then no switch is shown. */
  onViewChange: ((view: ResourceView) => void) | undefined;
  selected: string[];
  onSelect: (keys: string[]) => void;
  onBulkDelete: ((keys: string[]) => Promise<unknown>) | undefined;
  bulkActions: ((selected: string[], done: () => Promise<void>) => ReactNode) | undefined;
  choosable: ColumnChooserProps['columns'];
  choice: ColumnChoice;
  /** The page's own buttons (create, import…). */
  children: ReactNode;
}): JSX.Element {
  const { list, testId, view, onViewChange, choosable } = props;
  const { t } = useTranslation('table');
  return (
    <div className="ec-resource__toolbar">
      <div className="ec-resource__toolbar-left">
        {view === 'table' ? (
          <ResourceBulkBar
            list={list}
            testId={testId}
            selected={props.selected}
            onSelect={props.onSelect}
            onBulkDelete={props.onBulkDelete}
            bulkActions={props.bulkActions}
          />
        ) : null}
      </div>
      <div className="ec-resource__toolbar-right">
        {props.children}
        {onViewChange ? <ResourceViewSwitch view={view} testId={testId} onChange={onViewChange} /> : null}
        {choosable.length > 1 && view === 'table' ? <ColumnChooser columns={choosable} choice={props.choice} testId={testId} /> : null}
        <Button
          icon={<IconRefresh />}
          aria-label={t('refresh')}
          title={t('refresh')}
          onClick={() => void list.refresh()}
          data-testid={`${testId}-refresh`}
        />
      </div>
    </div>
  );
}
