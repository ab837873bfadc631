/**
 * The fields of one data type, following the chosen type: INT and DOUBLE range, step and unit; TEXT
 * length; BOOL open and close names; ENUM items; STRUCT members ("struct items"), each a parameter
 * with its own data type. Also the parameter lists of services and events, whose entries are the
 * same name, identifier and data type. Every rule is checked inline with the server's rule and text
 * (server/contract/rules/thing-model.ts).
 */
import type { JSX, ReactNode } from 'react';
import Button from '@arco-design/web-react/es/Button';
import Form from '@arco-design/web-react/es/Form';
import Input from '@arco-design/web-react/es/Input';
import InputNumber from '@arco-design/web-react/es/InputNumber';
import IconDelete from '@arco-design/web-react/icon/react-icon/IconDelete';
import { useTranslation } from 'react-i18next';
import {
  BOOL_NAME_MAX,
  FUNCTION_NAME_MAX,
  IDENTIFIER_MAX,
  PARAMS_MAX,
  thingModelDataTypes,
  UNIT_MAX,
  type ThingModelDataTypeName,
} from '../../../server/contract/thing-model.ts';
import {
  boolNameProblem,
  boolOpenProblem,
  duplicateParamProblem,
  functionNameProblem,
  identifierProblem,
  maxProblem,
  numberProblem,
  paramsProblem,
  stepProblem,
  structMembersProblem,
  textLengthProblem,
  unitProblem,
} from '../../../server/contract/rules/thing-model.ts';
import { EnumSelect } from '../../components/EnumSelect.tsx';
import { problemRule, trimmedRule } from '../../lib/form-rules.ts';
import { EnumItemsField } from './EnumItemsField.tsx';
import { emptyDataType, emptyParam, type ParamValues } from './thingModelForm.ts';
import { AddRowButton } from './RowButtons.tsx';

const scalarTypes = thingModelDataTypes.filter((type) => type !== 'STRUCT');

export interface DataTypeFieldsProps {
  /** Form path of the data type (`dataType`, `inputData[0].dataType`). */
  prefix: string;
  /** False for STRUCT members: a struct cannot hold a struct. */
  allowStruct: boolean;
  /** Prefix of the `data-testid`s (`tm` → `tm-type`, `tm-min`…). */
  testId: string;
}

export function DataTypeFields({ prefix, allowStruct, testId }: DataTypeFieldsProps): JSX.Element {
  const { t } = useTranslation('thingModel');
  const { form } = Form.useFormContext();
  const type = Form.useWatch(`${prefix}.type`, form) as ThingModelDataTypeName | undefined;
  const at = (name: string): string => `${prefix}.${name}`;
  const value = (name: string): unknown => form.getFieldValue(at(name));
  const integer = type === 'INT';

  // A list type starts with one row to fill in rather than an empty list.
  const typeChanged = (next: ThingModelDataTypeName | undefined): void => {
    if (next === 'ENUM' && !(value('enumItems') as unknown[] | undefined)?.length) form.setFieldValue(at('enumItems'), emptyDataType('ENUM').enumItems);
    if (next === 'STRUCT' && !(value('members') as unknown[] | undefined)?.length) form.setFieldValue(at('members'), emptyDataType('STRUCT').members);
  };

  let specs: ReactNode = null;
  if (type === 'INT' || type === 'DOUBLE') {
    specs = (
      <>
        <div className="ec-tm-grid">
          <Form.Item field={at('min')} label={t('form.min')} required rules={[problemRule((v) => numberProblem(v, integer, true))]}>
            <InputNumber placeholder={t('form.minPlaceholder')} data-testid={`${testId}-min`} />
          </Form.Item>
          <Form.Item
            field={at('max')}
            label={t('form.max')}
            required
            dependencies={[at('min')]}
            rules={[problemRule((v) => maxProblem(v, value('min'), integer))]}
          >
            <InputNumber placeholder={t('form.maxPlaceholder')} data-testid={`${testId}-max`} />
          </Form.Item>
          <Form.Item
            field={at('step')}
            label={t('form.step')}
            dependencies={[at('min'), at('max')]}
            rules={[problemRule((v) => stepProblem(v, value('min'), value('max'), integer))]}
          >
            <InputNumber placeholder={t('form.stepPlaceholder')} data-testid={`${testId}-step`} />
          </Form.Item>
        </div>
        <div className="ec-tm-grid ec-tm-grid--2">
          <Form.Item field={at('unit')} label={t('form.unit')} rules={[problemRule(unitProblem)]}>
            <Input placeholder={t('form.unitPlaceholder')} maxLength={{ length: UNIT_MAX, errorOnly: true }} data-testid={`${testId}-unit`} />
          </Form.Item>
          <Form.Item field={at('unitName')} label={t('form.unitName')} rules={[problemRule(unitProblem)]}>
            <Input placeholder={t('form.unitNamePlaceholder')} maxLength={{ length: UNIT_MAX, errorOnly: true }} data-testid={`${testId}-unit-name`} />
          </Form.Item>
        </div>
      </>
    );
  } else if (type === 'TEXT') {
    specs = (
      <Form.Item field={at('length')} label={t('form.length')} required rules={[problemRule(textLengthProblem)]} extra={t('form.lengthHint')}>
        <InputNumber placeholder="255" data-testid={`${testId}-length`} />
      </Form.Item>
    );
  } else if (type === 'BOOL') {
    specs = (
      <div className="ec-tm-grid ec-tm-grid--2">
        <Form.Item field={at('boolClose')} label={t('form.boolClose')} required rules={[problemRule(boolNameProblem)]}>
          <Input
            addBefore="0"
            placeholder={t('form.boolClosePlaceholder')}
            maxLength={{ length: BOOL_NAME_MAX, errorOnly: true }}
            data-testid={`${testId}-bool-close`}
          />
        </Form.Item>
        <Form.Item
          field={at('boolOpen')}
          label={t('form.boolOpen')}
          required
          dependencies={[at('boolClose')]}
          rules={[problemRule((v) => boolOpenProblem(v, value('boolClose')))]}
        >
          <Input
            addBefore="1"
            placeholder={t('form.boolOpenPlaceholder')}
            maxLength={{ length: BOOL_NAME_MAX, errorOnly: true }}
            data-testid={`${testId}-bool-open`}
          />
        </Form.Item>
      </div>
    );
  } else if (type === 'ENUM') {
    specs = (
      <Form.Item label={t('form.enumItems')} required>
        <EnumItemsField field={at('enumItems')} testId={testId} />
      </Form.Item>
    );
  } else if (type === 'STRUCT') {
    specs = (
      <Form.Item label={t('form.members')} required>
        <ParamListField field={at('members')} allowStruct={false} required testId={`${testId}-members`} addText={t('form.addMember')} />
      </Form.Item>
    );
  }

  return (
    <>
      <Form.Item field={at('type')} label={t('form.dataType')} required rules={[problemRule((v) => (v ? null : { key: 'error.field.choice' }))]}>
        <EnumSelect
          ns="thingModel"
          group="dataType"
          values={allowStruct ? thingModelDataTypes : scalarTypes}
          onChange={typeChanged}
          testId={`${testId}-type`}
        />
      </Form.Item>
      {specs}
    </>
  );
}

export interface ParamListFieldProps {
  /** Form path of the list (`inputData`, `dataType.members`). */
  field: string;
  /** Whether entries may be STRUCTs (service and event parameters may; STRUCT members may not). */
  allowStruct: boolean;
  /** At least one entry (STRUCT members). */
  required?: boolean;
  testId: string;
  addText: ReactNode;
}

/** A list of parameters (or STRUCT members), each with name, identifier and data type. */
export function ParamListField({ field, allowStruct, required = false, testId, addText }: ParamListFieldProps): JSX.Element {
  const { t } = useTranslation('thingModel');
  const { form } = Form.useFormContext();
  const identifiers = (): unknown[] => ((form.getFieldValue(field) as ParamValues[] | undefined) ?? []).map((p) => p?.identifier);
  const listProblem = required ? structMembersProblem : paramsProblem;

  return (
    <Form.List field={field} rules={[problemRule(listProblem)]}>
      {(items, { add, remove }) => (
        <div className="ec-tm-params" data-testid={testId}>
          {items.map((item, index) => (
            <fieldset key={item.key} className="ec-tm-param" data-testid={`${testId}-${index}`}>
              <legend className="ec-tm-param__legend">
                <span>{t('form.paramNumber', { number: index + 1 })}</span>
                <Button
                  type="text"
                  size="mini"
                  status="danger"
                  icon={<IconDelete />}
                  disabled={required && items.length <= 1}
                  onClick={() => remove(index)}
                  data-testid={`${testId}-${index}-remove`}
                >
                  {t('form.removeParam')}
                </Button>
              </legend>
              <div className="ec-tm-grid ec-tm-grid--2">
                <Form.Item field={`${item.field}.functionName`} label={t('form.paramName')} required rules={[trimmedRule(functionNameProblem)]}>
                  <Input
                    placeholder={t('form.functionNamePlaceholder')}
                    maxLength={{ length: FUNCTION_NAME_MAX, errorOnly: true }}
                    data-testid={`${testId}-${index}-name`}
                  />
                </Form.Item>
                <Form.Item
                  field={`${item.field}.identifier`}
                  label={t('form.identifier')}
                  required
                  rules={[trimmedRule((v) => identifierProblem(v) ?? duplicateParamProblem(v, index, identifiers()))]}
                >
                  <Input
                    placeholder={t('form.identifierPlaceholder')}
                    maxLength={{ length: IDENTIFIER_MAX, errorOnly: true }}
                    data-testid={`${testId}-${index}-identifier`}
                  />
                </Form.Item>
              </div>
              <DataTypeFields prefix={`${item.field}.dataType`} allowStruct={allowStruct} testId={`${testId}-${index}`} />
            </fieldset>
          ))}
          <AddRowButton disabled={items.length >= PARAMS_MAX} onClick={() => add(emptyParam())} testId={`${testId}-add`}>
            {addText}
          </AddRowButton>
        </div>
      )}
    </Form.List>
  );
}
