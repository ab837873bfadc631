/**
 * The column chooser of a list table's toolbar: a button opening a panel of checkboxes, one per
 * column the user may hide (web/components/column-choice.ts). Keyboard: the button opens it with
 * Enter or Space, Tab walks the checkboxes, Space toggles one, Escape closes and gives focus back.
 * The last shown column cannot be hidden, so the table never goes blank.
 */
import { useRef, useState, type JSX, type KeyboardEvent, type ReactNode } from 'react';
import Button from '@arco-design/web-react/es/Button';
import Checkbox from '@arco-design/web-react/es/Checkbox';
import Popover from '@arco-design/web-react/es/Popover';
import IconSettings from '@arco-design/web-react/icon/react-icon/IconSettings';
import { useTranslation } from 'react-i18next';
import type { ColumnChoice } from './column-choice.ts';

export interface ColumnChooserProps {
  columns: { id: string; label: ReactNode }[];
  choice: ColumnChoice;
  /** Prefix of the test ids: `<testId>-columns`, `-columns-panel`, `-column-<id>`. */
  testId: string;
}

export function ColumnChooser({ columns, choice, testId }: ColumnChooserProps): JSX.Element {
  const { t } = useTranslation('table');
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const shownCount = columns.filter((c) => !choice.hidden.has(c.id)).length;
  const close = (): void => {
    setOpen(false);
    button.current?.focus();
  };
  const panel = (
    <div
      className="ec-columns"
      role="group"
      aria-label={t('columnsTitle')}
      data-testid={`${testId}-columns-panel`}
      onKeyDown={(event: KeyboardEvent<HTMLDivElement>) => {
        if (event.key === 'Escape') close();
      }}
    >
      {columns.map((c) => {
        const shown = !choice.hidden.has(c.id);
        return (
          <Checkbox
            key={c.id}
            checked={shown}
            disabled={shown && shownCount === 1}
            onChange={(checked: boolean) => choice.setShown(c.id, checked)}
            data-testid={`${testId}-column-${c.id}`}
          >
            {c.label}
          </Checkbox>
        );
      })}
      <Button type="text" size="mini" className="ec-columns__reset" onClick={() => choice.reset()} disabled={choice.hidden.size === 0}>
        {t('columnsReset')}
      </Button>
    </div>
  );
  return (
    <Popover trigger="click" position="br" popupVisible={open} onVisibleChange={setOpen} content={panel} title={t('columnsTitle')}>
      <Button
        ref={button}
        icon={<IconSettings />}
        aria-label={t('columns')}
        aria-expanded={open}
        aria-haspopup="true"
        title={t('columns')}
        data-testid={`${testId}-columns`}
      />
    </Popover>
  );
}
