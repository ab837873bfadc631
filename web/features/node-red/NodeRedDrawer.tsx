/**
 * Create or edit a Node-RED instance: name (NAME_PATTERN, ≤ 30, unique), port (optional: the first
 * free port of the system's port range), description (≤ 255). Rules are the contract's, texts the server's.
 */
import type { JSX } from 'react';
import Form from '@arco-design/web-react/es/Form';
import Input from '@arco-design/web-react/es/Input';
import InputNumber from '@arco-design/web-react/es/InputNumber';
import Message from '@arco-design/web-react/es/Message';
import { useTranslation } from 'react-i18next';
import type { NodeRedInstance } from '../../../server/contract/node-red.ts';
import { NAME_MAX } from '../../../server/contract/validation.ts';
import { DescriptionFormItem } from '../../components/DescriptionFormItem.tsx';
import { FormDrawer } from '../../components/FormDrawer.tsx';
import { nameRules } from '../../lib/form-rules.ts';
import { createInstance, updateInstance } from './nodeRedApi.ts';

interface InstanceValues {
  name: string;
  port: number | undefined;
  description: string;
}

const fields = ['name', 'port', 'description'] as const;

export interface NodeRedDrawerProps {
  /** undefined: closed; null: create; an instance: edit it. */
  editing: NodeRedInstance | null | undefined;
  onClose: () => void;
  onSaved: () => void;
}

export function NodeRedDrawer({ editing, onClose, onSaved }: NodeRedDrawerProps): JSX.Element {
  const { t } = useTranslation('nodeRed');

  const submit = async (values: InstanceValues): Promise<void> => {
    const body = { name: values.name.trim(), port: values.port ?? null, description: values.description?.trim() ?? '' };
    if (editing) await updateInstance({ id: editing.id, ...body });
    else await createInstance(body);
    Message.success(editing ? t('saved') : t('created'));
    onSaved();
  };

  const initialValues: InstanceValues = editing
    ? { name: editing.name, port: editing.port, description: editing.description }
    : { name: '', port: undefined, description: '' };

  return (
    <FormDrawer<InstanceValues>
      testId="node-red-drawer"
      visible={editing !== undefined}
      mode={editing ? 'edit' : 'create'}
      title={editing ? t('editTitle') : t('createTitle')}
      initialValues={initialValues}
      fields={fields}
      onSubmit={submit}
      onClose={onClose}
    >
      <Form.Item field="name" label={t('name')} rules={nameRules()} required>
        <Input placeholder={t('namePlaceholder')} maxLength={{ length: NAME_MAX, errorOnly: true }} showWordLimit data-testid="node-red-form-name" />
      </Form.Item>
      <Form.Item field="port" label={t('port')} extra={t('portHint')}>
        <InputNumber min={1024} max={65535} precision={0} data-testid="node-red-form-port" />
      </Form.Item>
      <DescriptionFormItem label={t('description')} placeholder={t('descriptionPlaceholder')} testId="node-red-form-description" />
    </FormDrawer>
  );
}
