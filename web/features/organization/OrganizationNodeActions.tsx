/** The buttons on an organization tree node: add a child, edit, move, delete (confirmed). */
import type { JSX } from 'react';
import Button from '@arco-design/web-react/es/Button';
import IconDelete from '@arco-design/web-react/icon/react-icon/IconDelete';
import IconDragArrow from '@arco-design/web-react/icon/react-icon/IconDragArrow';
import IconEdit from '@arco-design/web-react/icon/react-icon/IconEdit';
import IconPlus from '@arco-design/web-react/icon/react-icon/IconPlus';
import { useTranslation } from 'react-i18next';
import type { OrganizationTreeNode } from '../../../server/contract/organization.ts';
import { ConfirmButton } from '../../components/ConfirmButton.tsx';
import type { OrganizationEdit } from './OrganizationDrawer.tsx';

export function OrganizationNodeActions({
  node,
  onEdit,
  onRemove,
}: {
  node: OrganizationTreeNode;
  onEdit: (edit: OrganizationEdit) => void;
  onRemove: (node: OrganizationTreeNode) => Promise<void>;
}): JSX.Element {
  const { t } = useTranslation('organization');
  const button = (label: string, icon: JSX.Element, next: OrganizationEdit, testId: string): JSX.Element => (
    <Button type="text" size="mini" icon={icon} title={label} aria-label={label} onClick={() => onEdit(next)} data-testid={testId} />
  );
  return (
    <span className="ec-organization__actions" role="group" aria-label={t('actionsOf', { name: node.name })}>
      {button(t('createChild'), <IconPlus />, { kind: 'create', parent: node }, `organization-add-child-${node.id}`)}
      {button(t('edit'), <IconEdit />, { kind: 'edit', node }, `organization-edit-${node.id}`)}
      {button(t('move'), <IconDragArrow />, { kind: 'move', node }, `organization-move-${node.id}`)}
      <ConfirmButton
        size="mini"
        icon={<IconDelete />}
        aria-label={t('delete')}
        title={t('deleteConfirm', { name: node.name })}
        onConfirm={() => onRemove(node)}
        testId={`organization-delete-${node.id}`}
      />
    </span>
  );
}
