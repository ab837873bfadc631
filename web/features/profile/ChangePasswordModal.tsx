/** STUB — to be replaced by the pages work. */
import type { JSX } from 'react';
export interface ChangePasswordModalProps {
  visible: boolean;
  onClose: () => void;
}
export function ChangePasswordModal(_props: ChangePasswordModalProps): JSX.Element | null {
  return null;
}
