/**
 * A button for a destructive action that asks first: a popover with the question and
 * confirm/cancel (both reachable with Tab and Enter; Esc closes). While `onConfirm` runs the
 * confirm button shows loading; a rejection keeps the popover closed and leaves the message to
 * the HTTP client.
 *
 * @example
 * <ConfirmButton
 *   testId={`category-delete-${row.id}`}            // -> …-confirm on the popover's OK button
 *   title={t('table:deleteConfirm', { name: row.name })}
 *   onConfirm={() => deleteCategories([row.id]).then(list.refresh)}
 * >
 *   {t('table:delete')}
 * </ConfirmButton>
 */
import type { JSX, ReactNode } from 'react';
import Button from '@arco-design/web-react/es/Button';
import type { ButtonProps } from '@arco-design/web-react/es/Button';
import Popconfirm from '@arco-design/web-react/es/Popconfirm';
import { useTranslation } from 'react-i18next';

export interface ConfirmButtonProps {
  /** The question ("Delete "Gateway A"? This cannot be undone."). */
  title: ReactNode;
  onConfirm: () => Promise<unknown> | void;
  children?: ReactNode;
  /** `data-testid` of the button; the popover's OK button gets `<testId>-confirm`. */
  testId: string;
  /** Confirm button text; "Delete" by default. */
  okText?: ReactNode;
  /** Danger styling (default true: most confirmed actions destroy something). */
  danger?: boolean;
  type?: ButtonProps['type'];
  size?: ButtonProps['size'];
  icon?: ReactNode;
  disabled?: boolean;
  'aria-label'?: string;
}

export function ConfirmButton(props: ConfirmButtonProps): JSX.Element {
  const { t } = useTranslation('table');
  const danger = props.danger ?? true;
  return (
    <Popconfirm
      title={props.title}
      okText={props.okText ?? t('delete')}
      cancelText={t('cancel')}
      disabled={props.disabled}
      focusLock
      okButtonProps={{ status: danger ? 'danger' : undefined, ...({ 'data-testid': `${props.testId}-confirm` } as object) }}
      cancelButtonProps={{ ...({ 'data-testid': `${props.testId}-cancel` } as object) }}
      onOk={async () => {
        try {
          await props.onConfirm();
        } catch {
          // The HTTP client already showed why (e.g. "still used by 3 devices").
        }
      }}
    >
      <Button
        type={props.type ?? 'text'}
        size={props.size ?? 'small'}
        status={danger ? 'danger' : undefined}
        icon={props.icon}
        disabled={props.disabled}
        aria-label={props['aria-label']}
        data-testid={props.testId}
      >
        {props.children}
      </Button>
    </Popconfirm>
  );
}
