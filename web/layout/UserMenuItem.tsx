/** One entry of the user popover: a button (so Tab and Enter reach it) with an icon, pressed when it is the current choice. */
import type { JSX, ReactNode } from 'react';

export interface UserMenuItemProps {
  icon: ReactNode;
  label: string;
  testId: string;
  onClick: () => void;
  active?: boolean;
  danger?: boolean;
}

export function UserMenuItem({ icon, label, testId: id, onClick, active, danger }: UserMenuItemProps): JSX.Element {
  const cls = ['user-menu__item', active ? 'is-active' : '', danger ? 'is-danger' : ''].filter(Boolean).join(' ');
  return (
    <button type="button" className={cls} data-testid={id} aria-pressed={active} onClick={onClick}>
      <span className="user-menu__icon" aria-hidden="true">
        {icon}
      </span>
      {label}
    </button>
  );
}
