/** STUB — to be replaced by the pages work. */
import type { JSX } from 'react';
export interface ProfileModalProps {
  visible: boolean;
  onClose: () => void;
}
export function ProfileModal(_props: ProfileModalProps): JSX.Element | null {
  return null;
}
