/** The header button that opens the user popover: avatar (or initials) and name. */
import type { JSX, RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import Avatar from '@arco-design/web-react/es/Avatar';
import type { UserInfo } from '../../server/contract/user.ts';
import { initials } from './initials.ts';

export interface UserMenuTriggerProps {
  buttonRef: RefObject<HTMLButtonElement | null>;
  open: boolean;
  user: UserInfo | null;
  name: string;
}

export function UserMenuTrigger({ buttonRef, open, user, name }: UserMenuTriggerProps): JSX.Element {
  const { t } = useTranslation(['layout', 'common']);
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
      <span className="visually-hidden">{t('layout:user.menu')}</span>
    </button>
  );
}
