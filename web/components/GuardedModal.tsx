/**
 * A modal holding a form that asks before discarding unsaved changes: closing by
 * the × button, Esc or Cancel while the form is dirty goes through `confirmLeave()`. The content
 * is mounted on open only, so each opening starts from fresh values.
 */
import { useState, type JSX, type ReactNode } from 'react';
import Modal from '@arco-design/web-react/es/Modal';
import { confirmLeave, useLeaveGuard } from '../lib/leave-guard.ts';
import { useReturnFocus } from '../lib/return-focus.ts';

export interface GuardedModalControls {
  /** The form reports whether it holds unsaved changes. */
  setDirty: (dirty: boolean) => void;
  /** Close, asking first when dirty (Cancel buttons). */
  requestClose: () => void;
  /** Close without asking (after a successful save). */
  close: () => void;
}

export interface GuardedModalProps {
  visible: boolean;
  title: ReactNode;
  width?: number;
  onClose: () => void;
  /** False: no × and no Esc, for a dialog that must be completed (a forced password change). */
  closable?: boolean;
  children: (controls: GuardedModalControls) => ReactNode;
}

export function GuardedModal({ visible, title, width = 520, onClose, closable = true, children }: GuardedModalProps): JSX.Element {
  const [dirty, setDirty] = useState(false);
  useLeaveGuard(visible && dirty);
  const returnFocus = useReturnFocus(visible);

  const close = (): void => {
    setDirty(false);
    onClose();
  };
  const requestClose = (): void => {
    void (async () => {
      if (!dirty || (await confirmLeave())) close();
    })();
  };

  return (
    <Modal
      visible={visible}
      title={title}
      onCancel={requestClose}
      footer={null}
      unmountOnExit
      afterClose={returnFocus}
      maskClosable={false}
      closable={closable}
      escToExit={closable}
      style={{ width, maxWidth: 'calc(100vw - 32px)' }}
    >
      {children({ setDirty, requestClose, close })}
    </Modal>
  );
}
