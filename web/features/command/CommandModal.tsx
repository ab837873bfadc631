/**
 * Command delivery: command type CUSTOM, SERVICE,
 * ATTRIBUTE or API; call type ASYNC or SYNC; one-way or two-way with its timeout. The content is a
 * form generated from the service's input parameters for SERVICE, JSON (checked as typed, "JSON
 * parsing failed") for the others, and ASCII or HEX text for TCP devices. The outcome is said in a
 * message (success or failure) and shown in the dialog, the server's refusals (the device is
 * offline, content that does not fit the model) inline.
 */
import { useEffect, useRef, useState, type JSX } from 'react';
import Form from '@arco-design/web-react/es/Form';
import Input from '@arco-design/web-react/es/Input';
import InputNumber from '@arco-design/web-react/es/InputNumber';
import Message from '@arco-design/web-react/es/Message';
import Radio from '@arco-design/web-react/es/Radio';
import Select from '@arco-design/web-react/es/Select';
import { useTranslation } from 'react-i18next';
import {
  COMMAND_TIMEOUT_MAX_MS,
  COMMAND_TIMEOUT_MIN_MS,
  commandCallTypes,
  commandTypes,
  commandWays,
  type Command,
  type CommandType,
} from '../../../server/contract/command.ts';
import type { Device } from '../../../server/contract/device.ts';
import type { ThingModelTsl } from '../../../server/contract/thing-model.ts';
import { EnumSelect } from '../../components/EnumSelect.tsx';
import { EnumTag } from '../../components/EnumTag.tsx';
import { FormError } from '../../components/FormError.tsx';
import { GuardedModal } from '../../components/GuardedModal.tsx';
import { errorMessage } from '../../lib/error-text.ts';
import { i18n } from '../../i18n/i18n.ts';
import { sendCommand } from './commandApi.ts';
import { ParamField, rule } from './ParamField.tsx';
import { SendFooter } from './SendFooter.tsx';
import {
  commandBody,
  contentTemplate,
  DEFAULT_TIMEOUT_SECONDS,
  initialParamInput,
  jsonContentProblem,
  rawContentProblem,
  serviceContent,
  type CommandValues,
  type ParamInput,
} from './commandForm.ts';
import { commandStatusColors } from './commandStyle.ts';
import { CodeBlock, prettyJson } from '../../components/CodeBlock.tsx';
import './command.css';

/** What the dialog opens with (the data tab's card actions). */
export interface CommandPreset {
  commandType: CommandType;
  service?: string;
  /** ATTRIBUTE: the writable property to set. */
  property?: string;
}

export interface CommandModalProps {
  device: Device;
  /** The product's published model (null: none; SERVICE is then unavailable). */
  model: ThingModelTsl | null;
  visible: boolean;
  preset?: CommandPreset;
  onClose: () => void;
  onSent?: (command: Command) => void;
}

/** The message after a send, by the outcome. */
function announce(command: Command): void {
  const t = i18n.getFixedT(null, 'command');
  const status = command.status;
  if (status === 'SUCCESSFUL') Message.success(t('result.successful'));
  else if (status === 'SENT' || status === 'DELIVERED') Message.success(command.way === 'twoway' ? t('result.sentAwaiting') : t('result.sent'));
  else if (status === 'QUEUED') Message.info(t('result.queued'));
  else Message.error(t('result.failed', { status: t(`status.${status}`) }));
}

export function CommandModal(props: CommandModalProps): JSX.Element {
  const { t } = useTranslation('command');
  return (
    <GuardedModal visible={props.visible} title={t('send.title', { name: props.device.alias || props.device.name })} width={680} onClose={props.onClose}>
      {({ setDirty, requestClose }) => <CommandForm {...props} setDirty={setDirty} onCancel={requestClose} />}
    </GuardedModal>
  );
}

function CommandForm({
  device,
  model,
  preset,
  onSent,
  setDirty,
  onCancel,
}: CommandModalProps & { setDirty: (dirty: boolean) => void; onCancel: () => void }): JSX.Element {
  const { t } = useTranslation(['command', 'thingModel']);
  const [form] = Form.useForm<CommandValues>();
  const [sending, setSending] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [result, setResult] = useState<Command | null>(null);
  const tcp = device.transportType === 'TCP';
  const services = model?.services ?? [];
  const initialType: CommandType = preset?.commandType ?? (services.length && !tcp ? 'SERVICE' : 'CUSTOM');
  const commandType = (Form.useWatch('commandType', form) as CommandType | undefined) ?? initialType;
  const way = Form.useWatch('way', form) as string | undefined;
  const serviceId = Form.useWatch('service', form) as string | undefined;
  const service = services.find((s) => s.identifier === serviceId);
  const template = useRef('');

  const initial: CommandValues = {
    commandType: initialType,
    callType: 'SYNC',
    way: 'twoway',
    format: 'HEX',
    timeoutSeconds: DEFAULT_TIMEOUT_SECONDS,
    service: preset?.service ?? services[0]?.identifier,
    content: '',
  };

  // A JSON type starts from its template; text the user typed stays.
  useEffect(() => {
    if (tcp || commandType === 'SERVICE') return;
    const current = (form.getFieldValue('content') as string | undefined) ?? '';
    if (current.trim() && current !== template.current) return;
    let next = contentTemplate(commandType, model);
    if (commandType === 'ATTRIBUTE' && preset?.property) {
      const property = model?.properties.find((p) => p.identifier === preset.property);
      const all = JSON.parse(next) as Record<string, unknown>;
      if (property && property.identifier in all) next = JSON.stringify({ [property.identifier]: all[property.identifier] }, null, 2);
    }
    template.current = next;
    form.setFieldValue('content', next);
  }, [commandType, tcp, model, form, preset?.property]);

  // A service starts with an example inside each input's range.
  useEffect(() => {
    if (!service) return;
    const params = Object.fromEntries(service.functionJson.inputData.map((p) => [p.identifier, initialParamInput(p.dataType)]));
    form.setFieldValue('params', params);
  }, [service, form]);

  const submit = async (values: CommandValues): Promise<void> => {
    setSending(true);
    setFailure(null);
    setResult(null);
    try {
      const command = await sendCommand(device.id, commandBody(values, tcp, services));
      setResult(command);
      setDirty(false);
      announce(command);
      onSent?.(command);
    } catch (err) {
      const message = errorMessage(err);
      setFailure(message);
      Message.error(t('result.refused', { reason: message }));
    } finally {
      setSending(false);
    }
  };

  const params = (Form.useWatch('params', form) as Record<string, ParamInput> | undefined) ?? {};
  const preview = service ? serviceContent(service.identifier, service.functionJson.inputData, params) : '';

  return (
    <Form<CommandValues>
      form={form}
      layout="vertical"
      initialValues={initial}
      onSubmit={(values) => void submit(values)}
      onValuesChange={() => setDirty(true)}
      disabled={sending}
      data-testid="cmd-form"
    >
      <Form.Item field="commandType" label={t('fields.commandType')} required>
        <Radio.Group type="button" data-testid="cmd-type">
          {commandTypes.map((type) => (
            <Radio key={type} value={type} disabled={type === 'SERVICE' && (tcp || services.length === 0)} data-testid={`cmd-type-${type}`}>
              {t(`type.${type}`)}
            </Radio>
          ))}
        </Radio.Group>
      </Form.Item>
      {commandType === 'SERVICE' && services.length === 0 && !tcp ? <p className="arco-form-message">{t('send.noServices')}</p> : null}
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

      {tcp ? (
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
      )}

      {result ? <CommandResult command={result} /> : null}
      <FormError message={failure} testId="cmd-error" />
      <SendFooter
        sent={!!result}
        sending={sending}
        onCancel={onCancel}
        testId="cmd"
        texts={{ cancel: t('send.cancel'), close: t('send.close'), send: t('send.submit'), again: t('send.again') }}
      />
    </Form>
  );
}

/** The outcome of a send: status, and the device's answer when there is one. */
export function CommandResult({ command }: { command: Command }): JSX.Element {
  const { t } = useTranslation('command');
  return (
    <div className="ec-cmd-result" data-testid="cmd-result">
      <div className="ec-cmd-result__head">
        {t('fields.status')}
        <EnumTag ns="command" group="status" value={command.status} colors={commandStatusColors} testId="cmd-result-status" />
        {command.responseType ? <EnumTag ns="command" group="responseType" value={command.responseType} /> : null}
      </div>
      {command.responseContent ? <CodeBlock compact wrap text={prettyJson(command.responseContent)} testId="cmd-result-response" /> : null}
    </div>
  );
}
