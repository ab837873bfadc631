/** The content of a command by its kind: raw HEX or ASCII for a TCP device, a service's inputs, or JSON. */
import type { JSX } from 'react';
import Form from '@arco-design/web-react/es/Form';
import type { FormInstance } from '@arco-design/web-react/es/Form';
import Input from '@arco-design/web-react/es/Input';
import Radio from '@arco-design/web-react/es/Radio';
import Select from '@arco-design/web-react/es/Select';
import { useTranslation } from 'react-i18next';
import type { CommandType } from '../../../server/contract/command.ts';
import type { ThingModelTsl } from '../../../server/contract/thing-model.ts';
import { CodeBlock, prettyJson } from '../../components/CodeBlock.tsx';
import { ParamField, rule } from './ParamField.tsx';
import { jsonContentProblem, rawContentProblem, type CommandValues } from './commandForm.ts';

type Service = ThingModelTsl['services'][number];

export function CommandContentFields(props: {
  form: FormInstance<CommandValues>;
  tcp: boolean;
  commandType: CommandType;
  services: Service[];
  service: Service | undefined;
  /** The JSON the service's inputs make. */
  preview: string;
}): JSX.Element {
  const { form, tcp, commandType, services, service, preview } = props;
  const { t } = useTranslation(['command', 'thingModel']);
  return tcp ? (
    <>
      <Form.Item field="format" label={t('fields.format')} required extra={t('send.tcpHint')}>
        <Radio.Group type="button" data-testid="cmd-format">
          <Radio value="HEX" data-testid="cmd-format-HEX">
            HEX
          </Radio>
          <Radio value="ASCII" data-testid="cmd-format-ASCII">
            ASCII
          </Radio>
        </Radio.Group>
      </Form.Item>
      <Form.Item
        field="content"
        label={t('fields.content')}
        required
        dependencies={['format']}
        rules={[rule((v) => rawContentProblem(v, (form.getFieldValue('format') as 'HEX' | 'ASCII' | undefined) ?? 'HEX'))]}
      >
        <Input.TextArea className="ec-cmd-textarea" autoSize={{ minRows: 3, maxRows: 8 }} placeholder="01 03 00 00 00 02 C4 0B" data-testid="cmd-content" />
      </Form.Item>
    </>
  ) : commandType === 'SERVICE' ? (
    <>
      <Form.Item field="service" label={t('fields.service')} required rules={[{ required: true, message: t('send.serviceRequired') }]}>
        <Select placeholder={t('send.servicePlaceholder')} data-testid="cmd-service" getPopupContainer={() => document.body}>
          {services.map((s) => (
            <Select.Option key={s.identifier} value={s.identifier} data-testid={`cmd-service-${s.identifier}`}>
              {`${s.functionName} (${s.identifier})`}
            </Select.Option>
          ))}
        </Select>
      </Form.Item>
      {service?.functionJson.inputData.map((param) => <ParamField key={`${service.identifier}.${param.identifier}`} param={param} field={`params.${param.identifier}`} testId={`cmd-param-${param.identifier}`} />)}
      {service && service.functionJson.inputData.length === 0 ? <p className="arco-form-message">{t('send.noInputs')}</p> : null}
      {service ? (
        <Form.Item label={t('send.preview')}>
          <CodeBlock compact wrap text={prettyJson(preview)} testId="cmd-preview" />
        </Form.Item>
      ) : null}
    </>
  ) : (
    <Form.Item
      field="content"
      label={t('fields.content')}
      required
      dependencies={['commandType']}
      rules={[rule((v) => jsonContentProblem(v, commandType))]}
      extra={commandType === 'ATTRIBUTE' ? t('send.attributeHint') : t('send.methodHint')}
    >
      <Input.TextArea className="ec-cmd-textarea" autoSize={{ minRows: 5, maxRows: 14 }} spellCheck={false} data-testid="cmd-content" />
    </Form.Item>
  );
}
