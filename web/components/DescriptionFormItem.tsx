/**
 * The free-text description of a form (≤ DESCRIPTION_MAX characters, the contract's limit, with
 * the server's text when exceeded): a growing text area with a character count.
 *
 * @example
 * <DescriptionFormItem label={t('description')} placeholder={t('descriptionPlaceholder')} testId="category-form-description" />
 */
import type { JSX } from 'react';
import Form from '@arco-design/web-react/es/Form';
import Input from '@arco-design/web-react/es/Input';
import { DESCRIPTION_MAX } from '../../server/contract/validation.ts';
import { maxLengthRule } from '../lib/form-rules.ts';

export interface DescriptionFormItemProps {
  label: string;
  placeholder?: string;
  /** `data-testid` of the text area. */
  testId: string;
  /** Form field name; `description` by default. */
  field?: string;
}

export function DescriptionFormItem({ label, placeholder, testId, field = 'description' }: DescriptionFormItemProps): JSX.Element {
  return (
    <Form.Item field={field} label={label} rules={[maxLengthRule(DESCRIPTION_MAX, 'description')]}>
      <Input.TextArea
        placeholder={placeholder}
        maxLength={{ length: DESCRIPTION_MAX, errorOnly: true }}
        showWordLimit
        autoSize={{ minRows: 3, maxRows: 6 }}
        data-testid={testId}
      />
    </Form.Item>
  );
}
