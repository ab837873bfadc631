/**
 * Create or edit a thing-model item: function type,
 * name and identifier, then by function type a property's access mode and data type (plus the
 * Modbus extension descriptor on Modbus products), a service's call type and input/output
 * parameters, or an event's type and output parameters. The server's refusals land on the field
 * they name, however deep (`functionJson.inputData.0.dataType.specs.1` → that parameter's open name).
 */
import { useRef, type JSX } from 'react';
import Form from '@arco-design/web-react/es/Form';
import type { FormInstance } from '@arco-design/web-react/es/Form';
import Input from '@arco-design/web-react/es/Input';
import { useTranslation } from 'react-i18next';
import { commandCallTypes } from '../../../server/contract/command.ts';
import type { Product } from '../../../server/contract/product.ts';
import {
  accessModes,
  FUNCTION_NAME_MAX,
  functionTypes,
  IDENTIFIER_MAX,
  thingModelEventTypes,
  type FunctionType,
  type ThingModelItem,
} from '../../../server/contract/thing-model.ts';
import { registerWidth } from '../../../server/contract/rules/modbus.ts';
import { functionNameProblem, identifierProblem } from '../../../server/contract/rules/thing-model.ts';
import { EnumSelect } from '../../components/EnumSelect.tsx';
import { FormDrawer } from '../../components/FormDrawer.tsx';
import { ApiError } from '../../lib/api-client.ts';
import { errorKeyText } from '../../lib/error-text.ts';
import { problemText, trimmedRule } from '../../lib/form-rules.ts';
import { DataTypeFields, ParamListField } from './DataTypeFields.tsx';
import { ModbusFields } from './ModbusFields.tsx';
import { createItem, updateItem } from './thingModelApi.ts';
import { emptyItem, formFieldOf, itemBody, itemValues, type ItemValues } from './thingModelForm.ts';

/** Top-level names server details may carry: FormDrawer marks these itself, the nested ones are marked here. */
const serverFields = ['functionName', 'identifier', 'accessMode', 'callType', 'eventType', 'functionJson', 'extensionDesc'] as const;

export function isModbusProduct(product: Pick<Product, 'transportType' | 'tcpProtocolType'>): boolean {
  return product.transportType === 'TCP' && product.tcpProtocolType === 'MODBUS_RTU';
}

export interface ThingModelDrawerProps {
  product: Product;
  /** undefined: closed; a function type: create one; an item: edit it. */
  editing: ThingModelItem | FunctionType | undefined;
  onClose: () => void;
  onSaved: (item: ThingModelItem) => void;
}

/** A detail's text; the one rule whose text names a value gets it from the form. */
function detailText(key: string | undefined, values: ItemValues): string {
  if (key === 'error.thingModel.modbus.registerCountTooSmall' && values.modbus) {
    return problemText({ key: 'error.thingModel.modbus.registerCountTooSmall', params: { min: registerWidth(values.modbus.originalDataType) ?? 1 } });
  }
  return errorKeyText(key ?? 'error.validation');
}

/** Marks the fields a refusal names, however deep; FormDrawer shows the message of anything unmarked. */
function markServerErrors(form: FormInstance<ItemValues> | null, err: unknown, values: ItemValues): void {
  if (!form || !(err instanceof ApiError)) return;
  const marked: Record<string, { value: unknown; error: { message: string } }> = {};
  for (const detail of err.body?.details ?? []) {
    const field = formFieldOf(detail.field, values);
    if (!field || field in marked) continue;
    marked[field] = { value: form.getFieldValue(field as keyof ItemValues), error: { message: detailText(detail.key, values) } };
  }
  if (Object.keys(marked).length) form.setFields(marked as Parameters<typeof form.setFields>[0]);
}

export function ThingModelDrawer({ product, editing, onClose, onSaved }: ThingModelDrawerProps): JSX.Element {
  const { t } = useTranslation(['thingModel', 'errors']);
  const formRef = useRef<FormInstance<ItemValues> | null>(null);
  const item = typeof editing === 'object' ? editing : null;
  const modbus = isModbusProduct(product);
  const tcp = product.transportType === 'TCP';

  const submit = async (values: ItemValues): Promise<void> => {
    const body = itemBody(values, product.id, modbus);
    try {
      onSaved(item ? await updateItem({ id: item.id, ...body }) : await createItem(body));
    } catch (err) {
      markServerErrors(formRef.current, err, values);
      throw err;
    }
  };

  return (
    <FormDrawer<ItemValues>
      testId="tm-drawer"
      visible={editing !== undefined}
      mode={item ? 'edit' : 'create'}
      width="70%"
      title={item ? t('form.editTitle', { name: item.functionName }) : t('form.createTitle')}
      initialValues={item ? itemValues(item) : emptyItem(typeof editing === 'string' ? editing : 'properties')}
      fields={serverFields as unknown as (keyof ItemValues)[]}
      onSubmit={submit}
      onClose={onClose}
    >
      {(form) => {
        formRef.current = form;
        return <ItemFields tcp={tcp} modbus={modbus} editing={item !== null} />;
      }}
    </FormDrawer>
  );
}

function ItemFields({ tcp, modbus, editing }: { tcp: boolean; modbus: boolean; editing: boolean }): JSX.Element {
  const { t } = useTranslation('thingModel');
  const { form } = Form.useFormContext();
  const functionType = Form.useWatch('functionType', form) as FunctionType | undefined;
  const outputs = (
    <Form.Item label={t('form.outputData')}>
      <ParamListField field="outputData" allowStruct testId="tm-outputData" addText={t('form.addParam')} />
    </Form.Item>
  );

  return (
    <>
      <Form.Item field="functionType" label={t('form.functionType')} required extra={editing ? t('form.functionTypeLocked') : undefined}>
        <EnumSelect ns="thingModel" group="functionType" values={functionTypes} variant="radio" disabled={editing} testId="tm-function-type" />
      </Form.Item>
      <div className="ec-tm-grid ec-tm-grid--2">
        <Form.Item field="functionName" label={t('form.functionName')} required rules={[trimmedRule(functionNameProblem)]}>
          <Input placeholder={t('form.functionNamePlaceholder')} maxLength={{ length: FUNCTION_NAME_MAX, errorOnly: true }} showWordLimit data-testid="tm-name" />
        </Form.Item>
        <Form.Item
          field="identifier"
          label={t('form.identifier')}
          required
          rules={[trimmedRule((v) => identifierProblem(v, tcp))]}
          extra={tcp ? t('form.identifierTcpHint') : t('form.identifierHint')}
        >
          <Input placeholder={t('form.identifierPlaceholder')} maxLength={{ length: IDENTIFIER_MAX, errorOnly: true }} showWordLimit data-testid="tm-identifier" />
        </Form.Item>
      </div>
      {functionType === 'properties' ? (
        <>
          <Form.Item field="accessMode" label={t('form.accessMode')} required>
            <EnumSelect ns="thingModel" group="accessMode" values={accessModes} variant="radio" testId="tm-access-mode" />
          </Form.Item>
          <DataTypeFields prefix="dataType" allowStruct testId="tm" />
          {modbus ? <ModbusFields /> : null}
        </>
      ) : null}
      {functionType === 'services' ? (
        <>
          <Form.Item field="callType" label={t('form.callType')} required extra={t('form.callTypeHint')}>
            <EnumSelect ns="thingModel" group="callType" values={commandCallTypes} variant="radio" testId="tm-call-type" />
          </Form.Item>
          <Form.Item label={t('form.inputData')}>
            <ParamListField field="inputData" allowStruct testId="tm-inputData" addText={t('form.addParam')} />
          </Form.Item>
          {outputs}
        </>
      ) : null}
      {functionType === 'events' ? (
        <>
          <Form.Item field="eventType" label={t('form.eventType')} required>
            <EnumSelect ns="thingModel" group="eventType" values={thingModelEventTypes} variant="radio" testId="tm-event-type" />
          </Form.Item>
          {outputs}
        </>
      ) : null}
    </>
  );
}
