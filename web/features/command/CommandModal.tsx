/**
 * Command delivery: command type CUSTOM, SERVICE,
 * ATTRIBUTE or API; call type ASYNC or SYNC; one-way or two-way with its timeout. The content is a
 * form built from the thing model for SERVICE (the service's inputs) and ATTRIBUTE (a writable
 * property and its value): a switch for a BOOL, a select for an ENUM, a number with its range and
 * unit, a STRUCT's members; raw JSON is the advanced option there and the only form of CUSTOM and
 * API (checked as typed, "JSON parsing failed"); ASCII or HEX text for TCP devices. The outcome is said in a
 * message (success or failure) and shown in the dialog, the server's refusals (the device is
 * offline, content that does not fit the model) inline.
 */
import { useState, type JSX } from 'react';
import Form from '@arco-design/web-react/es/Form';
import Message from '@arco-design/web-react/es/Message';
import { useTranslation } from 'react-i18next';
import type { Command, CommandType } from '../../../server/contract/command.ts';
import type { Device } from '../../../server/contract/device.ts';
import type { ThingModelTsl } from '../../../server/contract/thing-model.ts';
import { EnumTag } from '../../components/EnumTag.tsx';
import { FormError } from '../../components/FormError.tsx';
import { GuardedModal } from '../../components/GuardedModal.tsx';
import { errorMessage } from '../../lib/error-text.ts';
import { i18n } from '../../i18n/i18n.ts';
import { sendCommand } from './commandApi.ts';
import { CommandContentFields } from './CommandContentFields.tsx';
import { CommandTimingFields } from './CommandTimingFields.tsx';
import { CommandTypeField } from './CommandTypeField.tsx';
import { SendFooter } from './SendFooter.tsx';
import { commandBody, DEFAULT_TIMEOUT_SECONDS, formContent, writableProperties, type CommandValues } from './commandForm.ts';
import { commandStatusColors } from './commandStyle.ts';
import { CodeBlock, prettyJson } from '../../components/CodeBlock.tsx';
import { useContentTemplates } from './useContentTemplates.ts';
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

/** The fields the dialog follows as they change (which inputs show, the content preview). */
const watched: (keyof CommandValues)[] = ['commandType', 'way', 'service', 'params', 'property', 'propertyValue', 'rawJson'];

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
  const writable = writableProperties(model);
  const initialType: CommandType = preset?.commandType ?? (services.length && !tcp ? 'SERVICE' : 'CUSTOM');
  const values = (Form.useWatch(watched, form) as Partial<CommandValues> | undefined) ?? {};
  const commandType = values.commandType ?? initialType;
  const rawJson = values.rawJson === true;
  const service = services.find((s) => s.identifier === values.service);
  const property = writable.find((p) => p.identifier === values.property);
  const published = { services, properties: model?.properties ?? [] };

  const initial: CommandValues = {
    commandType: initialType,
    callType: 'SYNC',
    way: 'twoway',
    format: 'HEX',
    timeoutSeconds: DEFAULT_TIMEOUT_SECONDS,
    service: preset?.service ?? services[0]?.identifier,
    property: writable.some((p) => p.identifier === preset?.property) ? preset?.property : writable[0]?.identifier,
    rawJson: false,
    content: '',
  };

  useContentTemplates({ form, commandType, tcp, model, rawJson, service, property });

  const submit = async (typed: CommandValues): Promise<void> => {
    setSending(true);
    setFailure(null);
    setResult(null);
    try {
      const command = await sendCommand(device.id, commandBody(typed, tcp, published));
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

  const preview = tcp ? null : formContent({ ...initial, ...values, commandType } as CommandValues, published);

  return (
    <Form<CommandValues>
      form={form}
      layout="vertical"
      initialValues={initial}
      onSubmit={(typed) => void submit(typed)}
      onValuesChange={() => setDirty(true)}
      disabled={sending}
      data-testid="cmd-form"
    >
      <CommandTypeField commandType={commandType} tcp={tcp} hasServices={services.length > 0} />
      <CommandTimingFields way={values.way} />

      <CommandContentFields
        form={form}
        tcp={tcp}
        commandType={commandType}
        services={services}
        service={service}
        writable={writable}
        property={property}
        rawJson={rawJson}
        preview={preview}
      />

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
