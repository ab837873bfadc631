/**
 * Create or edit a product category: name (NAME_PATTERN, ≤ 30, unique), domain (≤ 30), status,
 * type, description (≤ 255). Rules are the contract's, texts the server's.
 */
import type { JSX } from 'react';
import Form from '@arco-design/web-react/es/Form';
import Input from '@arco-design/web-react/es/Input';
import Message from '@arco-design/web-react/es/Message';
import { useTranslation } from 'react-i18next';
import {
  CATEGORY_DOMAIN_MAX,
  CategoryStatus,
  categoryTypes,
  type Category,
  type CategoryType,
} from '../../../server/contract/category.ts';
import { NAME_MAX } from '../../../server/contract/validation.ts';
import { EnumSelect } from '../../components/EnumSelect.tsx';
import { DescriptionFormItem } from '../../components/DescriptionFormItem.tsx';
import { FormDrawer } from '../../components/FormDrawer.tsx';
import { maxLengthRule, nameRules } from '../../lib/form-rules.ts';
import { createCategory, updateCategory } from './categoryApi.ts';

interface CategoryValues {
  name: string;
  domain: string;
  status: CategoryStatus;
  type: CategoryType;
  description: string;
}

const fields = ['name', 'domain', 'status', 'type', 'description'] as const;
const statusValues = [CategoryStatus.ENABLED, CategoryStatus.DISABLED] as const;

function valuesOf(category: Category | null): CategoryValues {
  return category
    ? {
        name: category.name,
        domain: category.domain ?? '',
        status: category.status as CategoryStatus,
        type: category.type,
        description: category.description ?? '',
      }
    : { name: '', domain: '', status: CategoryStatus.ENABLED, type: 'CUSTOM', description: '' };
}

export interface CategoryDrawerProps {
  /** undefined: closed; null: create; a category: edit it. */
  editing: Category | null | undefined;
  onClose: () => void;
  onSaved: () => void;
}

export function CategoryDrawer({ editing, onClose, onSaved }: CategoryDrawerProps): JSX.Element {
  const { t } = useTranslation('category');

  const submit = async (values: CategoryValues): Promise<void> => {
    const body = {
      name: values.name.trim(),
      domain: values.domain?.trim() || null,
      status: values.status,
      type: values.type,
      description: values.description?.trim() || null,
    };
    if (editing) await updateCategory({ id: editing.id, ...body });
    else await createCategory(body);
    Message.success(editing ? t('saved') : t('created'));
    onSaved();
  };

  return (
    <FormDrawer<CategoryValues>
      testId="category-drawer"
      visible={editing !== undefined}
      mode={editing ? 'edit' : 'create'}
      title={editing ? t('editTitle') : t('createTitle')}
      initialValues={valuesOf(editing ?? null)}
      fields={fields}
      onSubmit={submit}
      onClose={onClose}
    >
      <Form.Item field="name" label={t('name')} rules={nameRules()} required>
        <Input placeholder={t('namePlaceholder')} maxLength={{ length: NAME_MAX, errorOnly: true }} showWordLimit data-testid="category-form-name" />
      </Form.Item>
      <Form.Item field="domain" label={t('domain')} rules={[maxLengthRule(CATEGORY_DOMAIN_MAX, 'domain')]}>
        <Input placeholder={t('domainPlaceholder')} maxLength={{ length: CATEGORY_DOMAIN_MAX, errorOnly: true }} showWordLimit data-testid="category-form-domain" />
      </Form.Item>
      <Form.Item field="type" label={t('typeLabel')} extra={t('typeHint')}>
        <EnumSelect ns="category" group="type" values={categoryTypes} variant="radio" testId="category-form-type" />
      </Form.Item>
      <Form.Item field="status" label={t('statusLabel')} extra={t('statusHint')}>
        <EnumSelect ns="category" group="status" values={statusValues} variant="radio" testId="category-form-status" />
      </Form.Item>
      <DescriptionFormItem label={t('description')} placeholder={t('descriptionPlaceholder')} testId="category-form-description" />
    </FormDrawer>
  );
}
