/**
 * System → User: accounts with username, real name, role, organizations, enabled and creation
 * time; filter by username and role; create and edit in a drawer, reset a password (the user must
 * change it at the next sign-in), delete with confirmation. The server keeps one enabled super
 * administrator (409) and ends the sessions of disabled and deleted users.
 */
import { useMemo, useState, type JSX } from 'react';
import Button from '@arco-design/web-react/es/Button';
import Card from '@arco-design/web-react/es/Card';
import Form from '@arco-design/web-react/es/Form';
import Input from '@arco-design/web-react/es/Input';
import Message from '@arco-design/web-react/es/Message';
import Tag from '@arco-design/web-react/es/Tag';
import type { ColumnProps } from '@arco-design/web-react/es/Table';
import IconPlus from '@arco-design/web-react/icon/react-icon/IconPlus';
import { useTranslation } from 'react-i18next';
import { userAdminRoutes, type ManagedUser } from '../../../server/contract/user-admin.ts';
import { roles } from '../../../server/contract/user.ts';
import { ConfirmButton } from '../../components/ConfirmButton.tsx';
import { EnumSelect } from '../../components/EnumSelect.tsx';
import { EnumTag } from '../../components/EnumTag.tsx';
import { Permitted } from '../../components/Permitted.tsx';
import { ResourceTable } from '../../components/ResourceTable.tsx';
import { formatDateTime } from '../../lib/date-format.ts';
import { useList } from '../../lib/use-list.ts';
import { organizationName, useOrganizationTree } from '../organization/organizationTree.ts';
import { ResetPasswordModal } from './ResetPasswordModal.tsx';
import { UserDrawer } from './UserDrawer.tsx';
import { deleteUsers } from './userAdminApi.ts';

const roleColors: Record<string, string> = { SYS_ADMIN: 'red', PLATFORM_ADMIN: 'orangered', TENANT_ADMIN: 'arcoblue', CUSTOMER_USER: 'green' };

export function UserListPage(): JSX.Element {
  const { t } = useTranslation(['userAdmin', 'table']);
  const list = useList(userAdminRoutes.list, { urlFilters: { username: 'string', role: 'string' } });
  const { tree } = useOrganizationTree();
  // undefined: closed; null: creating; a user: editing them.
  const [editing, setEditing] = useState<ManagedUser | null | undefined>(undefined);
  const [resetting, setResetting] = useState<ManagedUser | null>(null);

  const remove = async (row: ManagedUser): Promise<void> => {
    await deleteUsers([row.id]);
    Message.success(t('deleted'));
    await list.refresh();
  };

  const columns = useMemo<ColumnProps<ManagedUser>[]>(
    () => [
      { title: t('username'), dataIndex: 'username', render: (v: string) => <strong>{v}</strong> },
      { title: t('realName'), dataIndex: 'realName' },
      {
        title: t('roleLabel'),
        dataIndex: 'role',
        width: 170,
        render: (v: string, row) => <EnumTag ns="userAdmin" group="role" value={v} colors={roleColors} testId={`user-role-${row.id}`} />,
      },
      {
        title: t('organizations'),
        dataIndex: 'organizationIds',
        render: (ids: string[]) => (ids.length ? ids.map((id) => organizationName(tree, id) ?? id).join(', ') : '—'),
      },
      {
        title: t('enabled'),
        dataIndex: 'enabled',
        render: (v: boolean, row) => (
          <Tag size="small" color={v ? 'green' : 'gray'} data-testid={`user-enabled-${row.id}`}>
            {v ? t('enabledYes') : t('enabledNo')}
          </Tag>
        ),
      },
      { title: t('createTime'), dataIndex: 'createTime', width: 180, render: (v: number) => formatDateTime(v) },
      {
        title: t('table:actions'),
        key: 'actions',
        width: 260,
        fixed: 'right',
        render: (_: unknown, row) => (
          <span style={{ display: 'inline-flex', gap: 4 }}>
            <Permitted perm="user:update">
              <Button type="text" size="small" onClick={() => setEditing(row)} data-testid={`user-edit-${row.id}`}>
                {t('table:edit')}
              </Button>
            </Permitted>
            <Permitted perm="user:reset_password">
              <Button type="text" size="small" onClick={() => setResetting(row)} data-testid={`user-reset-${row.id}`}>
                {t('resetPassword')}
              </Button>
            </Permitted>
            <Permitted perm="user:delete">
              <ConfirmButton title={t('deleteConfirm', { name: row.username })} onConfirm={() => remove(row)} testId={`user-delete-${row.id}`}>
                {t('table:delete')}
              </ConfirmButton>
            </Permitted>
          </span>
        ),
      },
    ],
    // oxlint-disable-next-line react-hooks/exhaustive-deps -- remove only calls list.refresh, which follows the list's query.
    [t, tree, list.refresh],
  );

  return (
    <Card title={t('title')} bordered={false} data-testid="user-page">
      <ResourceTable<ManagedUser, typeof list.filters>
        testId="user"
        list={list}
        rowKey="id"
        columns={columns}
        scrollX={1200}
        emptyText={t('empty')}
        filters={
          <>
            <Form.Item field="username" label={t('username')}>
              <Input allowClear placeholder={t('usernameFilter')} data-testid="user-filter-username" style={{ width: 200 }} />
            </Form.Item>
            <Form.Item field="role" label={t('roleLabel')}>
              <EnumSelect ns="userAdmin" group="role" values={roles} allowClear placeholder={t('rolePlaceholder')} testId="user-filter-role" style={{ width: 180 }} />
            </Form.Item>
          </>
        }
        toolbar={
          <Permitted perm="user:create">
            <Button type="primary" icon={<IconPlus />} onClick={() => setEditing(null)} data-testid="user-create">
              {t('create')}
            </Button>
          </Permitted>
        }
      />
      <UserDrawer editing={editing} onClose={() => setEditing(undefined)} onSaved={() => void list.refresh()} />
      <ResetPasswordModal user={resetting} onClose={() => setResetting(null)} />
    </Card>
  );
}
