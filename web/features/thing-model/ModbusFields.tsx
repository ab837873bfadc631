/**
 * The Modbus extension descriptor of a property (only on TCP products speaking
 * MODBUS_RTU): operation type, register address 0x0–0xFFFF as hex, original data type, scale
 * factor ≠ 0, bit position or mask for BITS, register count 1–125 for registers, value mapping.
 * Optional: a property without one is not polled (the device reports it by itself).
 */
import type { JSX } from 'react';
import Form from '@arco-design/web-react/es/Form';
import Input from '@arco-design/web-react/es/Input';
import InputNumber from '@arco-design/web-react/es/InputNumber';
import Radio from '@arco-design/web-react/es/Radio';
import Switch from '@arco-design/web-react/es/Switch';
import { useTranslation } from 'react-i18next';
import {
  BIT_POSITION_MAX,
  modbusDataTypes,
  modbusOperationTypes,
  REGISTER_COUNT_MAX,
  VALUE_MAPPING_MAX,
  VALUE_MAPPING_TEXT_MAX,
  type AccessMode,
  type ModbusDataType,
  type ModbusOperationType,
} from '../../../server/contract/thing-model.ts';
import {
  isBitOperation,
  operationProblem,
  originalDataTypeProblem,
  registerCountProblem,
  registerWidth,
  scaleFactorProblem,
  valueMappingTextProblem,
} from '../../../server/contract/rules/modbus.ts';
import { EnumSelect } from '../../components/EnumSelect.tsx';
import { problemRule, trimmedRule } from '../../lib/form-rules.ts';
import {
  bitMaskFieldProblem,
  bitPositionFieldProblem,
  registerAddressFieldProblem,
  valueMappingRawFieldProblem,
  valueMappingRowsProblem,
} from './modbusFieldRules.ts';
import type { ValueMappingRow } from './thingModelForm.ts';
import { AddRowButton, RemoveRowButton } from './RowButtons.tsx';

export function ModbusFields(): JSX.Element {
  const { t } = useTranslation('thingModel');
  const { form } = Form.useFormContext();
  const enabled = Form.useWatch('modbusEnabled', form) as boolean | undefined;
  const operation = Form.useWatch('modbus.operationType', form) as ModbusOperationType | undefined;
  const rawType = Form.useWatch('modbus.originalDataType', form) as ModbusDataType | undefined;
  const bitMode = Form.useWatch('modbus.bitMode', form) as string | undefined;
  const registers = operation !== undefined && !isBitOperation(operation);
  const width = rawType ? registerWidth(rawType) : 1;
  const mappingRows = (): ValueMappingRow[] => (form.getFieldValue('modbus.valueMapping') as ValueMappingRow[] | undefined) ?? [];

  return (
    <section className="ec-tm-modbus" aria-label={t('modbus.title')} data-testid="tm-modbus">
      <Form.Item field="modbusEnabled" label={t('modbus.title')} triggerPropName="checked" extra={t('modbus.hint')}>
        <Switch data-testid="tm-modbus-enabled" />
      </Form.Item>
      {enabled ? (
        <>
          <div className="ec-tm-grid ec-tm-grid--2">
            <Form.Item
              field="modbus.operationType"
              label={t('modbus.operationType')}
              required
              dependencies={['accessMode']}
              rules={[problemRule((v) => operationProblem(v as ModbusOperationType, form.getFieldValue('accessMode') as AccessMode))]}
            >
              <EnumSelect ns="thingModel" group="modbusOperation" values={modbusOperationTypes} testId="tm-modbus-operation" />
            </Form.Item>
            <Form.Item field="modbus.registerAddress" label={t('modbus.registerAddress')} required rules={[trimmedRule(registerAddressFieldProblem)]}>
              <Input addBefore="0x" placeholder="0000" maxLength={4} data-testid="tm-modbus-address" />
            </Form.Item>
            <Form.Item
              field="modbus.originalDataType"
              label={t('modbus.originalDataType')}
              required
              dependencies={['modbus.operationType']}
              rules={[problemRule((v) => originalDataTypeProblem(v as ModbusDataType, form.getFieldValue('modbus.operationType') as ModbusOperationType))]}
              extra={t('modbus.byteOrderHint')}
            >
              <EnumSelect ns="thingModel" group="modbusDataType" values={modbusDataTypes} testId="tm-modbus-data-type" />
            </Form.Item>
            <Form.Item field="modbus.scaleFactor" label={t('modbus.scaleFactor')} rules={[problemRule(scaleFactorProblem)]} extra={t('modbus.scaleFactorHint')}>
              <InputNumber placeholder="1" data-testid="tm-modbus-scale" />
            </Form.Item>
            {registers ? (
              <Form.Item
                field="modbus.registerCount"
                label={t('modbus.registerCount')}
                required={width === undefined}
                dependencies={['modbus.originalDataType']}
                rules={[problemRule((v) => registerCountProblem(v, form.getFieldValue('modbus.originalDataType') as ModbusDataType))]}
                extra={width === undefined ? t('modbus.registerCountString', { max: REGISTER_COUNT_MAX }) : t('modbus.registerCountHint', { width, max: REGISTER_COUNT_MAX })}
              >
                <InputNumber placeholder={width === undefined ? '' : String(width)} data-testid="tm-modbus-count" />
              </Form.Item>
            ) : null}
          </div>
          {rawType === 'BITS' ? (
            <div className="ec-tm-grid ec-tm-grid--2">
              <Form.Item field="modbus.bitMode" label={t('modbus.bitChoice')}>
                <Radio.Group type="button" data-testid="tm-modbus-bit-mode">
                  <Radio value="position">{t('modbus.bitPosition')}</Radio>
                  <Radio value="mask">{t('modbus.bitMask')}</Radio>
                </Radio.Group>
              </Form.Item>
              {bitMode === 'mask' ? (
                <Form.Item field="modbus.bitMask" label={t('modbus.bitMask')} required rules={[trimmedRule(bitMaskFieldProblem)]}>
                  <Input addBefore="0x" placeholder="0001" maxLength={4} data-testid="tm-modbus-bit-mask" />
                </Form.Item>
              ) : (
                <Form.Item field="modbus.bitPosition" label={t('modbus.bitPosition')} required rules={[problemRule(bitPositionFieldProblem)]}>
                  <InputNumber placeholder={`0–${BIT_POSITION_MAX}`} data-testid="tm-modbus-bit-position" />
                </Form.Item>
              )}
            </div>
          ) : null}
          <Form.Item label={t('modbus.valueMapping')} extra={t('modbus.valueMappingHint')}>
            <Form.List field="modbus.valueMapping" rules={[problemRule(valueMappingRowsProblem)]}>
              {(rows, { add, remove }) => (
                <div className="ec-tm-rows" data-testid="tm-modbus-mapping">
                  {rows.map((row, index) => (
                    <div key={row.key} className="ec-tm-rows__row">
                      <Form.Item field={`${row.field}.raw`} rules={[trimmedRule((v) => valueMappingRawFieldProblem(v, index, mappingRows()))]}>
                        <Input placeholder={t('modbus.rawValue')} aria-label={t('modbus.rawValue')} data-testid={`tm-modbus-mapping-${index}-raw`} />
                      </Form.Item>
                      <Form.Item field={`${row.field}.text`} rules={[problemRule(valueMappingTextProblem)]}>
                        <Input
                          placeholder={t('modbus.displayText')}
                          aria-label={t('modbus.displayText')}
                          maxLength={{ length: VALUE_MAPPING_TEXT_MAX, errorOnly: true }}
                          data-testid={`tm-modbus-mapping-${index}-text`}
                        />
                      </Form.Item>
                      <RemoveRowButton onClick={() => remove(index)} testId={`tm-modbus-mapping-${index}-remove`} />
                    </div>
                  ))}
                  <AddRowButton disabled={rows.length >= VALUE_MAPPING_MAX} onClick={() => add({})} testId="tm-modbus-mapping-add">
                    {t('modbus.addMapping')}
                  </AddRowButton>
                </div>
              )}
            </Form.List>
          </Form.Item>
        </>
      ) : null}
    </section>
  );
}
