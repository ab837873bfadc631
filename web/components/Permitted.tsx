/** Renders its children only for a user holding `perm` (web/stores/permissions.ts): buttons the role may not use are hidden. */
import type { JSX, ReactNode } from 'react';
import { usePermission } from '../stores/permissions.ts';

export interface PermittedProps {
  perm: string;
  children: ReactNode;
}

export function Permitted({ perm, children }: PermittedProps): JSX.Element | null {
  return usePermission(perm) ? <>{children}</> : null;
}
