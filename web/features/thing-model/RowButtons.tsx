/** The add and remove buttons of the drawer's editable lists (enum items, parameters, value mapping). */
import type { JSX, ReactNode } from 'react';
import Button from '@arco-design/web-react/es/Button';
import IconDelete from '@arco-design/web-react/icon/react-icon/IconDelete';
import IconPlus from '@arco-design/web-react/icon/react-icon/IconPlus';
import { useTranslation } from 'react-i18next';

export function AddRowButton({ onClick, disabled, testId, children }: { onClick: () => void; disabled: boolean; testId: string; children: ReactNode }): JSX.Element {
  return (
    <Button type="dashed" long icon={<IconPlus />} disabled={disabled} onClick={onClick} data-testid={testId}>
      {children}
    </Button>
  );
}

export function RemoveRowButton({ onClick, disabled = false, testId }: { onClick: () => void; disabled?: boolean; testId?: string }): JSX.Element {
  const { t } = useTranslation('thingModel');
  return (
    <Button
      type="text"
      status="danger"
      icon={<IconDelete />}
      aria-label={t('form.removeRow')}
      title={t('form.removeRow')}
      disabled={disabled}
      onClick={onClick}
      data-testid={testId}
    />
  );
}
