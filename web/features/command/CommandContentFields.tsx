/**
 * The content of a command by its kind: raw HEX or ASCII for a TCP device; a service's inputs or
 * a writable property's typed value, built from the thing model, with raw JSON as the advanced
 * option; JSON for CUSTOM and API.
 */
import type { JSX } from 'react';
import Form from '@arco-design/web-react/es/Form';
import type { FormInstance } from '@arco-design/web-react/es/Form';
import Input from '@arco-design/web-react/es/Input';
import Radio from '@arco-design/web-react/es/Radio';
import Select from '@arco-design/web-react/es/Select';
import Switch from '@arco-design/web-react/es/Switch';
import { useTranslation } from 'react-i18next';
import type { CommandType } from '../../../server/contract/command.ts';
import type { ThingModelTsl } from '../../../server/contract/thing-model.ts';
import { CodeBlock, prettyJson } from '../../components/CodeBlock.tsx';
import { modelItemLabel, ParamField, PropertyValueField, rule } from './ParamField.tsx';
import { jsonContentProblem, rawContentProblem, type CommandValues } from './commandForm.ts';

type Service = ThingModelTsl['services'][number];
type Property = ThingModelTsl['properties'][number];

export interface CommandContentFieldsProps {
  form: FormInstance<CommandValues>;
  tcp: boolean;
  commandType: CommandType;
  services: Service[];
  service: Service | undefined;
  /** The read/write properties of the published model (ATTRIBUTE). */
  writable: Property[];
  property: Property | undefined;
  /** The content typed as JSON instead of from the model (SERVICE, ATTRIBUTE). */
  rawJson: boolean;
  /** The JSON the typed inputs make (null: the command is typed as JSON). */
  preview: string | null;
}

export function CommandContentFields(props: CommandContentFieldsProps): JSX.Element {
  const { tcp, commandType, writable } = props;
  if (tcp) return <RawTextFields form={props.form} />;
  const fromModel = commandType === 'SERVICE' || (commandType === 'ATTRIBUTE' && writable.length > 0);
  return (
    <>
      {fromModel ? <RawJsonSwitch /> : null}
      {fromModel && !props.rawJson ? <ModelFields {...props} /> : <JsonContentField commandType={commandType} />}
    </>
  );
}

/** The advanced option: type the content as JSON. */
function RawJsonSwitch(): JSX.Element {
  const { t } = useTranslation('command');
  return (
    <Form.Item field="rawJson" label={t('send.rawJson')} triggerPropName="checked" extra={t('send.rawJsonHint')}>
      <Switch size="small" aria-label={t('send.rawJson')} data-testid="cmd-raw-json" />
    </Form.Item>
  );
}

/** A service and its inputs, or a writable property and its value, with the JSON they make. */
function ModelFields({ commandType, services, service, writable, property, preview }: CommandContentFieldsProps): JSX.Element {
  const { t } = useTranslation('command');
  const popup = (): HTMLElement => document.body;
  return commandType === 'SERVICE' ? (
    <>
      <Form.Item field="service" label={t('fields.service')} required rules={[{ required: true, message: t('send.serviceRequired') }]}>
        <Select placeholder={t('send.servicePlaceholder')} data-testid="cmd-service" getPopupContainer={popup}>
          {services.map((s) => (
            <Select.Option key={s.identifier} value={s.identifier} data-testid={`cmd-service-${s.identifier}`}>
              {modelItemLabel(s)}
            </Select.Option>
          ))}
        </Select>
      </Form.Item>
      {service?.functionJson.inputData.map((param) => <ParamField key={`${service.identifier}.${param.identifier}`} param={param} field={`params.${param.identifier}`} testId={`cmd-param-${param.identifier}`} />)}
      {service && service.functionJson.inputData.length === 0 ? <p className="arco-form-message">{t('send.noInputs')}</p> : null}
      {service ? <Preview text={preview} /> : null}
    </>
  ) : (
    <>
      <Form.Item field="property" label={t('send.property')} required rules={[{ required: true, message: t('send.propertyRequired') }]}>
        <Select placeholder={t('send.propertyPlaceholder')} data-testid="cmd-property" getPopupContainer={popup}>
          {writable.map((p) => (
            <Select.Option key={p.identifier} value={p.identifier} data-testid={`cmd-property-${p.identifier}`}>
              {modelItemLabel(p)}
            </Select.Option>
          ))}
        </Select>
      </Form.Item>
      {property ? <PropertyValueField key={property.identifier} property={property} field="propertyValue" testId={`cmd-value-${property.identifier}`} /> : null}
      {property ? <Preview text={preview} /> : null}
    </>
  );
}

function Preview({ text }: { text: string | null }): JSX.Element {
  const { t } = useTranslation('command');
  return (
    <Form.Item label={t('send.preview')}>
      <CodeBlock compact wrap text={prettyJson(text ?? '')} testId="cmd-preview" />
    </Form.Item>
  );
}

function JsonContentField({ commandType }: { commandType: CommandType }): JSX.Element {
  const { t } = useTranslation('command');
  return (
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

/** HEX or ASCII text of a TCP device. */
function RawTextFields({ form }: { form: FormInstance<CommandValues> }): JSX.Element {
  const { t } = useTranslation('command');
  return (
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
  );
}
