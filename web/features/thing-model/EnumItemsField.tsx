/**
 * The ENUM data type's list: value/description rows, 1 to 100, values
 * int32 integers and descriptions of 1–20 characters, both unique (the later duplicate is marked,
 * as the server marks it).
 */
import type { JSX } from 'react';
import Form from '@arco-design/web-react/es/Form';
import Input from '@arco-design/web-react/es/Input';
import InputNumber from '@arco-design/web-react/es/InputNumber';
import { useTranslation } from 'react-i18next';
import { enumDescriptionProblem, enumItemsProblem, enumValueProblem } from '../../../server/contract/rules/thing-model.ts';
import { ENUM_DESCRIPTION_MAX, ENUM_ITEMS_MAX } from '../../../server/contract/thing-model.ts';
import { problemRule } from '../../lib/form-rules.ts';
import type { EnumRowValues } from './thingModelForm.ts';
import { AddRowButton, RemoveRowButton } from './RowButtons.tsx';

export function EnumItemsField({ field, testId }: { field: string; testId: string }): JSX.Element {
  const { t } = useTranslation('thingModel');
  const { form } = Form.useFormContext();
  const rows = (): EnumRowValues[] => (form.getFieldValue(field) as EnumRowValues[] | undefined) ?? [];

  return (
    <Form.List field={field} rules={[problemRule(enumItemsProblem)]}>
      {(items, { add, remove }) => (
        <div className="ec-tm-rows" data-testid={`${testId}-enum`}>
          <div className="ec-tm-rows__head" aria-hidden="true">
            <span>{t('form.enumValue')}</span>
            <span>{t('form.enumDescription')}</span>
            <span />
          </div>
          {items.map((item, index) => (
            <div key={item.key} className="ec-tm-rows__row">
              <Form.Item
                field={`${item.field}.value`}
                rules={[problemRule((v) => enumValueProblem(v, index, rows()))]}
                aria-label={t('form.enumValue')}
              >
                <InputNumber placeholder={t('form.enumValuePlaceholder')} data-testid={`${testId}-enum-${index}-value`} />
              </Form.Item>
              <Form.Item
                field={`${item.field}.description`}
                rules={[problemRule((v) => enumDescriptionProblem(v, index, rows()))]}
                aria-label={t('form.enumDescription')}
              >
                <Input
                  placeholder={t('form.enumDescriptionPlaceholder')}
                  maxLength={{ length: ENUM_DESCRIPTION_MAX, errorOnly: true }}
                  data-testid={`${testId}-enum-${index}-description`}
                />
              </Form.Item>
              <RemoveRowButton disabled={items.length <= 1} onClick={() => remove(index)} testId={`${testId}-enum-${index}-remove`} />
            </div>
          ))}
          <AddRowButton disabled={items.length >= ENUM_ITEMS_MAX} onClick={() => add({})} testId={`${testId}-enum-add`}>
            {t('form.addEnumItem', { count: items.length, max: ENUM_ITEMS_MAX })}
          </AddRowButton>
        </div>
      )}
    </Form.List>
  );
}
