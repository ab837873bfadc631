/** The kind of a command; SERVICE only for a device whose model has services, and never over TCP. */
import type { JSX } from 'react';
import Form from '@arco-design/web-react/es/Form';
import Radio from '@arco-design/web-react/es/Radio';
import { useTranslation } from 'react-i18next';
import { commandTypes, type CommandType } from '../../../server/contract/command.ts';

export function CommandTypeField({ commandType, tcp, hasServices }: { commandType: CommandType; tcp: boolean; hasServices: boolean }): JSX.Element {
  const { t } = useTranslation(['command', 'thingModel']);
  return (
    <>
      <Form.Item field="commandType" label={t('fields.commandType')} required>
        <Radio.Group type="button" data-testid="cmd-type">
          {commandTypes.map((type) => (
            <Radio key={type} value={type} disabled={type === 'SERVICE' && (tcp || !hasServices)} data-testid={`cmd-type-${type}`}>
              {t(`type.${type}`)}
            </Radio>
          ))}
        </Radio.Group>
      </Form.Item>
      {commandType === 'SERVICE' && !hasServices && !tcp ? <p className="arco-form-message">{t('send.noServices')}</p> : null}
    </>
  );
}
