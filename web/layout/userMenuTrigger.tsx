/**
 * The header button that opens the user popover: avatar (or initials) and name. A function that
 * returns the button element, not a component: Arco's Popover clones its child to add its click
 * handler and reads the child's DOM node through its ref, which a component in between would drop.
 */
import type { JSX, RefObject } from 'react';
import Avatar from '@arco-design/web-react/es/Avatar';
import type { UserInfo } from '../../server/contract/user.ts';
import { initials } from './initials.ts';

export interface UserMenuTriggerProps {
  buttonRef: RefObject<HTMLButtonElement | null>;
  open: boolean;
  user: UserInfo | null;
  name: string;
  /** The menu's accessible name (layout:user.menu). */
  label: string;
}

export function userMenuTrigger({ buttonRef, open, user, name, label }: UserMenuTriggerProps): JSX.Element {
  return (
    <button
      type="button"
      ref={buttonRef}
      className="header-user"
      data-testid="user-menu"
      aria-haspopup="true"
      aria-expanded={open}
    >
      {/* Named by its content, so the name begins with the visible user name (axe:
          label-content-name-mismatch); the initials only repeat it. */}
      <Avatar size={28} className="header-user__avatar" aria-hidden="true">
        {user?.avatar ? <img src={user.avatar} alt="" /> : initials(name)}
      </Avatar>
      <span className="header-user__name">{name}</span>
      <span className="visually-hidden">{label}</span>
    </button>
  );
}
