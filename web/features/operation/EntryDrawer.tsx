/**
 * Create or edit a banner or a guide entry: name (NAME_PATTERN, ≤ 30), image (required), the
 * banner's link or the guide's route URL (the contract's patterns), status, sort (int32), remark.
 */
import type { JSX } from 'react';
import Form from '@arco-design/web-react/es/Form';
import Input from '@arco-design/web-react/es/Input';
import InputNumber from '@arco-design/web-react/es/InputNumber';
import Message from '@arco-design/web-react/es/Message';
import { useTranslation } from 'react-i18next';
import {
  BANNER_LINK_PATTERN,
  GUIDE_ROUTE_PATTERN,
  OPERATION_URL_MAX,
  type OperationEntry,
  type OperationKind,
} from '../../../server/contract/operation.ts';
import { NAME_MAX } from '../../../server/contract/validation.ts';
import { DescriptionFormItem } from '../../components/DescriptionFormItem.tsx';
import { EnumSelect } from '../../components/EnumSelect.tsx';
import { FormDrawer } from '../../components/FormDrawer.tsx';
import { ImageUploadField } from '../../components/ImageUploadField.tsx';
import { int32Rule, nameRules, requiredRule } from '../../lib/form-rules.ts';
import { createEntry, updateEntry } from './operationApi.ts';

interface EntryValues {
  name: string;
  image: string | null;
  url: string;
  status: number;
  sort: number;
  remark: string;
}

const fields = ['name', 'image', 'url', 'status', 'sort', 'remark'] as const;
const urlPatterns: Record<OperationKind, RegExp> = { banner: new RegExp(BANNER_LINK_PATTERN), guide: new RegExp(GUIDE_ROUTE_PATTERN) };

function valuesOf(entry: OperationEntry | null): EntryValues {
  return entry
    ? { name: entry.name, image: entry.image, url: entry.url, status: entry.status, sort: entry.sort, remark: entry.remark }
    : { name: '', image: null, url: '', status: 1, sort: 0, remark: '' };
}

export interface EntryDrawerProps {
  kind: OperationKind;
  /** undefined: closed; null: create; an entry: edit it. */
  editing: OperationEntry | null | undefined;
  onClose: () => void;
  onSaved: () => void;
}

export function EntryDrawer({ kind, editing, onClose, onSaved }: EntryDrawerProps): JSX.Element {
  const { t } = useTranslation('operation');

  const submit = async (values: EntryValues): Promise<void> => {
    const body = {
      name: values.name.trim(),
      image: values.image ?? '',
      url: values.url.trim(),
      status: values.status,
      sort: values.sort,
      remark: values.remark?.trim() ?? '',
    };
    if (editing) await updateEntry(kind, { id: editing.id, ...body });
    else await createEntry(kind, body);
    Message.success(editing ? t('entry.saved') : t('entry.created'));
    onSaved();
  };

  const urlRules = [
    ...(kind === 'guide' ? [requiredRule()] : []),
    { validator: (v: unknown, cb: (e?: string) => void) => cb(urlPatterns[kind].test(String(v ?? '').trim()) ? undefined : t(`${kind}.urlInvalid`)) },
  ];

  return (
    <FormDrawer<EntryValues>
      testId={`${kind}-drawer`}
      visible={editing !== undefined}
      mode={editing ? 'edit' : 'create'}
      title={editing ? t(`${kind}.editTitle`) : t(`${kind}.createTitle`)}
      initialValues={valuesOf(editing ?? null)}
      fields={fields}
      onSubmit={submit}
      onClose={onClose}
    >
      <Form.Item field="name" label={t('entry.name')} rules={nameRules()} required>
        <Input placeholder={t('entry.namePlaceholder')} maxLength={{ length: NAME_MAX, errorOnly: true }} showWordLimit data-testid={`${kind}-form-name`} />
      </Form.Item>
      <Form.Item field="image" label={t('entry.image')} required rules={[requiredRule(t('entry.imageRequired'))]}>
        <ImageUploadField testId={`${kind}-form-image`} />
      </Form.Item>
      <Form.Item field="url" label={t(`${kind}.url`)} required={kind === 'guide'} rules={urlRules}>
        <Input placeholder={t(`${kind}.urlPlaceholder`)} maxLength={OPERATION_URL_MAX} data-testid={`${kind}-form-url`} />
      </Form.Item>
      <Form.Item field="status" label={t('entry.status')}>
        <EnumSelect ns="operation" group="status" values={[1, 0]} variant="radio" testId={`${kind}-form-status`} />
      </Form.Item>
      <Form.Item field="sort" label={t('entry.sort')} rules={[int32Rule()]}>
        <InputNumber precision={0} data-testid={`${kind}-form-sort`} />
      </Form.Item>
      <DescriptionFormItem field="remark" label={t('entry.remark')} placeholder={t('entry.remarkPlaceholder')} testId={`${kind}-form-remark`} />
    </FormDrawer>
  );
}
