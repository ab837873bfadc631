/**
 * Write one value to a writable Modbus point and show the slave's answer (function code, outcome,
 * exception in words). The value is typed by the property's data type in the published model,
 * with the command dialog's inputs (web/features/command/ParamField.tsx).
 */
import { useState, type JSX } from 'react';
import Form from '@arco-design/web-react/es/Form';
import Input from '@arco-design/web-react/es/Input';
import Message from '@arco-design/web-react/es/Message';
import Spin from '@arco-design/web-react/es/Spin';
import { useTranslation } from 'react-i18next';
import type { ModbusPoint, ModbusWriteResult } from '../../../server/contract/modbus.ts';
import type { ThingModelParam, ThingModelTsl } from '../../../server/contract/thing-model.ts';
import { EnumTag } from '../../components/EnumTag.tsx';
import { FormError } from '../../components/FormError.tsx';
import { GuardedModal } from '../../components/GuardedModal.tsx';
import { errorMessage } from '../../lib/error-text.ts';
import { initialParamInput, paramValue, type ParamInput } from '../command/commandForm.ts';
import { ParamField } from '../command/ParamField.tsx';
import { SendFooter } from '../command/SendFooter.tsx';
import { usePublishedModel } from '../thing-model/usePublishedModel.ts';
import { writeFunctionCode, pointAddress } from './modbusFormat.ts';
import { writePoint } from './modbusApi.ts';
import { outcomeColors } from './modbusStyle.ts';

export interface ModbusWriteModalProps {
  deviceId: string;
  /** The device's product: its published model types the value. */
  deviceProfileId: string;
  /** The point to write; null: closed. */
  point: ModbusPoint | null;
  onClose: () => void;
  /** The slave confirmed a write (the points list may show the new value after a read). */
  onWritten: (result: ModbusWriteResult) => void;
}

export function ModbusWriteModal(props: ModbusWriteModalProps): JSX.Element {
  const { t } = useTranslation('modbus');
  const name = props.point ? `${props.point.name} (${props.point.identifier})` : '';
  return (
    <GuardedModal visible={props.point !== null} title={t('write.title', { name })} width={520} onClose={props.onClose}>
      {({ setDirty, requestClose }) => (props.point ? <WriteTyped {...props} point={props.point} setDirty={setDirty} onCancel={requestClose} /> : null)}
    </GuardedModal>
  );
}

interface WriteValues {
  params: Record<string, ParamInput>;
}

/** The property as a typed input; a TEXT input when the published model does not have it. */
function paramOf(point: ModbusPoint, model: ThingModelTsl | null): ThingModelParam {
  const property = model?.properties.find((p) => p.identifier === point.identifier);
  const dataType = property?.functionJson.dataType ?? { type: 'TEXT' as const, specs: { length: 250 } };
  return { identifier: point.identifier, functionName: point.name, dataType } as ThingModelParam;
}

type WriteFormProps = ModbusWriteModalProps & { point: ModbusPoint; setDirty: (dirty: boolean) => void; onCancel: () => void };

/** The published model is loaded when the dialog opens (only then is a value typed). */
function WriteTyped(props: WriteFormProps): JSX.Element {
  const { model, loading } = usePublishedModel(props.deviceProfileId);
  return loading ? <Spin className="ec-modbus-spin" /> : <WriteForm {...props} model={model} />;
}

function WriteForm({
  deviceId,
  point,
  model,
  onWritten,
  setDirty,
  onCancel,
}: WriteFormProps & { model: ThingModelTsl | null }): JSX.Element {
  const { t } = useTranslation('modbus');
  const [form] = Form.useForm<WriteValues>();
  const [sending, setSending] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [result, setResult] = useState<ModbusWriteResult | null>(null);
  const param = paramOf(point, model);
  const typed = model?.properties.some((p) => p.identifier === point.identifier) ?? false;

  const submit = async (values: WriteValues): Promise<void> => {
    const value = paramValue(param.dataType, values.params?.[point.identifier]);
    if (value === undefined) return;
    setSending(true);
    setFailure(null);
    setResult(null);
    try {
      const answer = await writePoint(deviceId, { identifier: point.identifier, value: value as number | boolean | string });
      setResult(answer);
      setDirty(false);
      if (answer.outcome === 'OK') {
        Message.success(t('write.done'));
        onWritten(answer);
      } else Message.error(t('write.failed', { reason: answer.message }));
    } catch (err) {
      setFailure(errorMessage(err));
    } finally {
      setSending(false);
    }
  };

  return (
    <Form<WriteValues>
      form={form}
      layout="vertical"
      initialValues={{ params: { [point.identifier]: initialParamInput(param.dataType) } }}
      onSubmit={(values) => void submit(values)}
      onValuesChange={() => setDirty(true)}
      disabled={sending}
      data-testid="modbus-write-form"
    >
      <p className="ec-modbus-muted" data-testid="modbus-write-target">
        {t('write.target', { identifier: point.identifier, fn: writeFunctionCode(point.extensionDesc), address: pointAddress(point.extensionDesc) })}
      </p>
      {typed ? (
        <ParamField param={param} field={`params.${param.identifier}`} testId={`modbus-write-value-${param.identifier}`} />
      ) : (
        <Form.Item field={`params.${point.identifier}`} label={t('write.valueLabel')} required extra={t('write.noModel')}>
          <Input data-testid={`modbus-write-value-${point.identifier}`} />
        </Form.Item>
      )}
      {result ? (
        <div className="ec-modbus-answer" role="status" data-testid="modbus-write-result">
          <span>{t('write.answer')}</span>
          <EnumTag ns="modbus" group="outcome" value={result.outcome} colors={outcomeColors} testId="modbus-write-outcome" />
          <span className="ec-modbus-muted">{t('write.functionCode', { code: String(result.functionCode).padStart(2, '0') })}</span>
          <span data-testid="modbus-write-message">{result.message}</span>
        </div>
      ) : null}
      <FormError message={failure} testId="modbus-write-error" />
      <SendFooter
        sent={!!result}
        sending={sending}
        onCancel={onCancel}
        testId="modbus-write"
        texts={{ cancel: t('write.cancel'), close: t('write.close'), send: t('write.send'), again: t('write.again') }}
      />
    </Form>
  );
}
