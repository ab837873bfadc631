/** The filter fields of the category list: name, status, type. */
import type { JSX } from 'react';
import Form from '@arco-design/web-react/es/Form';
import Input from '@arco-design/web-react/es/Input';
import { useTranslation } from 'react-i18next';
import { CategoryStatus, categoryTypes } from '../../../server/contract/category.ts';
import { EnumSelect } from '../../components/EnumSelect.tsx';

const statusValues = [CategoryStatus.ENABLED, CategoryStatus.DISABLED] as const;

export function CategoryFilters(): JSX.Element {
  const { t } = useTranslation('category');
  return (
    <>
      <Form.Item field="name" label={t('name')}>
        <Input allowClear placeholder={t('namePlaceholder')} data-testid="category-filter-name" style={{ width: 200 }} />
      </Form.Item>
      <Form.Item field="status" label={t('statusLabel')}>
        <EnumSelect ns="category" group="status" values={statusValues} allowClear placeholder={t('statusPlaceholder')} testId="category-filter-status" style={{ width: 140 }} />
      </Form.Item>
      <Form.Item field="type" label={t('typeLabel')}>
        <EnumSelect ns="category" group="type" values={categoryTypes} allowClear placeholder={t('typePlaceholder')} testId="category-filter-type" style={{ width: 160 }} />
      </Form.Item>
    </>
  );
}
