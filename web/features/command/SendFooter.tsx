/**
 * The footer of a dialog that sends something to a device and shows the answer in place (the
 * command dialog, the Modbus write dialog): cancel, or close once sent; send, or send again.
 * Test ids `<testId>-cancel` and `<testId>-send`.
 */
import type { JSX } from 'react';
import Button from '@arco-design/web-react/es/Button';
import './command.css';

export interface SendFooterProps {
  /** An answer is on show: the buttons read "close" and "again". */
  sent: boolean;
  sending: boolean;
  onCancel: () => void;
  testId: string;
  texts: { cancel: string; close: string; send: string; again: string };
}

export function SendFooter({ sent, sending, onCancel, testId, texts }: SendFooterProps): JSX.Element {
  return (
    <div className="ec-cmd-footer">
      {/* Never disabled with the form: closing stays possible while a send runs. */}
      <Button onClick={onCancel} disabled={false} data-testid={`${testId}-cancel`}>
        {sent ? texts.close : texts.cancel}
      </Button>
      <Button type="primary" htmlType="submit" loading={sending} data-testid={`${testId}-send`}>
        {sent ? texts.again : texts.send}
      </Button>
    </div>
  );
}
