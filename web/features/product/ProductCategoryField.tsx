/** The product form's category: enabled categories, searchable; a disabled one stays shown when the product already has it. */
import type { JSX } from 'react';
import Form from '@arco-design/web-react/es/Form';
import Select from '@arco-design/web-react/es/Select';
import { useTranslation } from 'react-i18next';
import { CategoryStatus, type CategoryOption } from '../../../server/contract/category.ts';

export interface ProductCategoryFieldProps {
  categories: CategoryOption[];
  /** The edited product's category, kept selectable even when disabled. */
  currentId: string | null;
}

export function ProductCategoryField({ categories, currentId }: ProductCategoryFieldProps): JSX.Element {
  const { t } = useTranslation('product');
  return (
    <Form.Item field="categoryId" label={t('category')}>
      <Select
        placeholder={t('categoryPlaceholder')}
        allowClear
        showSearch
        filterOption={(input, option) => String((option as { props?: { extra?: string } }).props?.extra ?? '').toLowerCase().includes(input.toLowerCase())}
        data-testid="product-form-category"
      >
        {categories.filter((c) => c.status === CategoryStatus.ENABLED || c.id === currentId).map((c) => (
          <Select.Option key={c.id} value={c.id} extra={c.name} data-testid={`product-form-category-${c.id}`}>
            {c.status === CategoryStatus.ENABLED ? c.name : t('categoryDisabledOption', { name: c.name })}
          </Select.Option>
        ))}
      </Select>
    </Form.Item>
  );
}
