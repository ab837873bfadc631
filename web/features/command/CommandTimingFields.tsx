/** How a command is called and waited for: call type, one-way or two-way, and the two-way timeout. */
import type { JSX } from 'react';
import Form from '@arco-design/web-react/es/Form';
import InputNumber from '@arco-design/web-react/es/InputNumber';
import { useTranslation } from 'react-i18next';
import { COMMAND_TIMEOUT_MAX_MS, COMMAND_TIMEOUT_MIN_MS, commandCallTypes, commandWays } from '../../../server/contract/command.ts';
import { EnumSelect } from '../../components/EnumSelect.tsx';

export function CommandTimingFields({ way }: { way: string | undefined }): JSX.Element {
  const { t } = useTranslation(['command', 'thingModel']);
  return (
    <div className="ec-cmd-row">
      <Form.Item field="callType" label={t('fields.callType')} required extra={t('send.callTypeHint')}>
        <EnumSelect ns="command" group="callType" values={commandCallTypes} variant="radio" testId="cmd-call-type" />
      </Form.Item>
      <Form.Item field="way" label={t('fields.way')} required>
        <EnumSelect ns="command" group="way" values={commandWays} variant="radio" testId="cmd-way" />
      </Form.Item>
      {way === 'twoway' ? (
        <Form.Item field="timeoutSeconds" label={t('fields.timeout')} required>
          <InputNumber
            min={COMMAND_TIMEOUT_MIN_MS / 1000}
            max={COMMAND_TIMEOUT_MAX_MS / 1000}
            precision={0}
            suffix={t('send.seconds')}
            style={{ width: 140 }}
            data-testid="cmd-timeout"
          />
        </Form.Item>
      ) : null}
    </div>
  );
}
