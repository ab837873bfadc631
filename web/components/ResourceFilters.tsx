/** The filter form of a ResourceTable: the page's fields, then search and reset. */
import type { JSX, ReactNode } from 'react';
import Button from '@arco-design/web-react/es/Button';
import Form from '@arco-design/web-react/es/Form';
import IconSearch from '@arco-design/web-react/icon/react-icon/IconSearch';
import { useTranslation } from 'react-i18next';
import type { ListController } from '../lib/use-list.ts';

export function ResourceFilters<T, F extends object>({ list, testId, children }: { list: ListController<T, F>; testId: string; children: ReactNode }): JSX.Element {
  const { t } = useTranslation('table');
  const [form] = Form.useForm();
  const search = (): void => {
    list.setFilters(form.getFieldsValue() as F);
  };
  const reset = (): void => {
    form.resetFields();
    list.setFilters(form.getFieldsValue() as F);
  };
  return (
    <Form
      form={form}
      layout="inline"
      className="ec-resource__filters"
      initialValues={list.filters as Record<string, unknown>}
      onSubmit={search}
      aria-label={t('filters')}
    >
      {children}
      <Form.Item className="ec-resource__filter-actions">
        <Button type="primary" htmlType="submit" icon={<IconSearch />} data-testid={`${testId}-search`}>
          {t('search')}
        </Button>
        <Button onClick={reset} data-testid={`${testId}-reset`}>
          {t('reset')}
        </Button>
      </Form.Item>
    </Form>
  );
}
