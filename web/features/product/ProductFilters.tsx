/** The filter fields of the product list: name, category, device type, transport, status. */
import type { JSX } from 'react';
import Form from '@arco-design/web-react/es/Form';
import Input from '@arco-design/web-react/es/Input';
import Select from '@arco-design/web-react/es/Select';
import { useTranslation } from 'react-i18next';
import type { CategoryOption } from '../../../server/contract/category.ts';
import { deviceTypes, productStatuses, transportTypes } from '../../../server/contract/product.ts';
import { EnumSelect } from '../../components/EnumSelect.tsx';

export function ProductFilters({ categories }: { categories: CategoryOption[] }): JSX.Element {
  const { t } = useTranslation('product');
  return (
    <>
      <Form.Item field="name" label={t('name')}>
        <Input allowClear placeholder={t('namePlaceholder')} data-testid="product-filter-name" style={{ width: 180 }} />
      </Form.Item>
      <Form.Item field="categoryId" label={t('category')}>
        <Select allowClear placeholder={t('anyCategory')} style={{ width: 160 }} data-testid="product-filter-category">
          {categories.map((c) => (
            <Select.Option key={c.id} value={c.id}>
              {c.name}
            </Select.Option>
          ))}
        </Select>
      </Form.Item>
      <Form.Item field="deviceType" label={t('deviceTypeLabel')}>
        <EnumSelect ns="product" group="deviceType" values={deviceTypes} allowClear placeholder={t('anyDeviceType')} testId="product-filter-device-type" style={{ width: 160 }} />
      </Form.Item>
      <Form.Item field="transportType" label={t('transportTypeLabel')}>
        <EnumSelect ns="product" group="transportType" values={transportTypes} allowClear placeholder={t('anyTransport')} testId="product-filter-transport" style={{ width: 140 }} />
      </Form.Item>
      <Form.Item field="status" label={t('statusLabel')}>
        <EnumSelect ns="product" group="status" values={productStatuses} allowClear placeholder={t('anyStatus')} testId="product-filter-status" style={{ width: 130 }} />
      </Form.Item>
    </>
  );
}
