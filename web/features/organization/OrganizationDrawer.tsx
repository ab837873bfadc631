/**
 * Create, edit or move an organization: name (NAME_PATTERN, ≤ 30), sort
 * (int32), superior organization. Moving shows only the superior organization; an organization's
 * own subtree cannot be chosen (the server refuses that too).
 */
import type { JSX } from 'react';
import Form from '@arco-design/web-react/es/Form';
import Input from '@arco-design/web-react/es/Input';
import InputNumber from '@arco-design/web-react/es/InputNumber';
import Message from '@arco-design/web-react/es/Message';
import { useTranslation } from 'react-i18next';
import type { OrganizationTreeNode } from '../../../server/contract/organization.ts';
import { NAME_MAX } from '../../../server/contract/validation.ts';
import { FormDrawer } from '../../components/FormDrawer.tsx';
import { OrganizationTreeSelect } from './OrganizationTreeSelect.tsx';
import { reloadOrganizationTree } from './organizationTree.ts';
import { int32Rule, nameRules } from '../../lib/form-rules.ts';
import { createOrganization, updateOrganization } from './organizationApi.ts';

/** What the drawer is open for. */
export type OrganizationEdit =
  | { kind: 'create'; parent: OrganizationTreeNode | null }
  | { kind: 'edit'; node: OrganizationTreeNode }
  | { kind: 'move'; node: OrganizationTreeNode };

interface OrganizationValues {
  name: string;
  sort: number | undefined;
  parentId: string | null;
}

const fields = ['name', 'sort', 'parentId'] as const;

function initialValues(edit: OrganizationEdit): Partial<OrganizationValues> {
  if (edit.kind === 'create') return { name: '', sort: 0, parentId: edit.parent?.id ?? null };
  return { name: edit.node.name, sort: edit.node.sort, parentId: edit.node.parentId };
}

export interface OrganizationDrawerProps {
  edit: OrganizationEdit | null;
  onClose: () => void;
}

export function OrganizationDrawer({ edit, onClose }: OrganizationDrawerProps): JSX.Element {
  const { t } = useTranslation('organization');
  const title =
    edit?.kind === 'create'
      ? edit.parent
        ? t('createChildTitle', { parent: edit.parent.name })
        : t('createTitle')
      : edit?.kind === 'move'
        ? t('moveTitle')
        : t('editTitle');

  const submit = async (values: OrganizationValues): Promise<void> => {
    if (!edit) return;
    const body = {
      name: values.name.trim(),
      sort: values.sort ?? 0,
      parentId: values.parentId ?? null,
    };
    if (edit.kind === 'create') {
      await createOrganization(body);
      Message.success(t('created'));
    } else {
      // PUT replaces the whole organization: a move keeps name and sort as they are.
      const whole = edit.kind === 'move' ? { ...body, name: edit.node.name, sort: edit.node.sort } : body;
      await updateOrganization({ id: edit.node.id, ...whole });
      Message.success(edit.kind === 'move' ? t('moved') : t('saved'));
    }
    await reloadOrganizationTree();
  };

  const moving = edit?.kind === 'move';
  const ownId = edit && edit.kind !== 'create' ? edit.node.id : undefined;

  return (
    <FormDrawer<OrganizationValues>
      testId="organization-drawer"
      visible={edit !== null}
      mode={edit?.kind === 'create' ? 'create' : 'edit'}
      width={moving ? 300 : 500}
      title={title}
      initialValues={edit ? initialValues(edit) : {}}
      fields={fields}
      onSubmit={submit}
      onClose={onClose}
    >
      {moving && edit ? <p className="ec-organization__move-hint">{t('moveHint', { name: edit.node.name })}</p> : null}
      <Form.Item field="name" label={t('name')} rules={nameRules()} hidden={moving} required>
        <Input placeholder={t('namePlaceholder')} maxLength={{ length: NAME_MAX, errorOnly: true }} showWordLimit data-testid="organization-form-name" />
      </Form.Item>
      <Form.Item field="sort" label={t('sort')} rules={[int32Rule()]} hidden={moving}>
        <InputNumber placeholder={t('sortPlaceholder')} style={{ width: '100%' }} data-testid="organization-form-sort" />
      </Form.Item>
      <Form.Item field="parentId" label={t('parent')} extra={t('parentHint')}>
        <OrganizationTreeSelect excludeSubtreeOf={ownId} placeholder={t('parentNone')} testId="organization-form-parent" />
      </Form.Item>
    </FormDrawer>
  );
}
