/**
 * System → Organization: the organization tree with name and sort;
 * create (top level or under a node), edit, move and delete. A refused delete (sub-organizations
 * or devices left) stays on screen with the server's reason until dismissed.
 */
import { useMemo, useState, type JSX } from 'react';
import Alert from '@arco-design/web-react/es/Alert';
import Button from '@arco-design/web-react/es/Button';
import Card from '@arco-design/web-react/es/Card';
import Message from '@arco-design/web-react/es/Message';
import IconPlus from '@arco-design/web-react/icon/react-icon/IconPlus';
import IconRefresh from '@arco-design/web-react/icon/react-icon/IconRefresh';
import { useTranslation } from 'react-i18next';
import type { OrganizationTreeNode } from '../../../server/contract/organization.ts';
import { reloadOrganizationTree, useOrganizationTree } from './organizationTree.ts';
import { errorMessage } from '../../lib/error-text.ts';
import { OrganizationDrawer, type OrganizationEdit } from './OrganizationDrawer.tsx';
import { OrganizationFilter } from './OrganizationFilter.tsx';
import { OrganizationNodeActions } from './OrganizationNodeActions.tsx';
import { OrganizationTreeBody, type TreeOption } from './OrganizationTreeBody.tsx';
import { deleteOrganizations } from './organizationApi.ts';
import './organization.css';

/** The tree limited to nodes whose name contains `text`, with their ancestors. */
function filterTree(nodes: readonly OrganizationTreeNode[], text: string): TreeOption[] {
  const needle = text.trim().toLowerCase();
  const out: TreeOption[] = [];
  for (const node of nodes) {
    const children = filterTree(node.children, text);
    if (!needle || node.name.toLowerCase().includes(needle) || children.length) {
      out.push({ key: node.id, title: node.name, node, children: children.length ? children : undefined });
    }
  }
  return out;
}

function allKeys(nodes: readonly OrganizationTreeNode[]): string[] {
  return nodes.flatMap((node) => [node.id, ...allKeys(node.children)]);
}

export function OrganizationPage(): JSX.Element {
  const { t } = useTranslation(['organization', 'table']);
  const { tree, loading, loaded } = useOrganizationTree();
  const [search, setSearch] = useState('');
  const [collapsed, setCollapsed] = useState<Set<string>>(() => new Set());
  const [edit, setEdit] = useState<OrganizationEdit | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);

  const options = useMemo(() => filterTree(tree, search), [tree, search]);
  const keys = useMemo(() => allKeys(tree), [tree]);
  // Everything is open unless the user closed it; a search opens every match's path.
  const expandedKeys = search.trim() ? keys : keys.filter((key) => !collapsed.has(key));

  const remove = async (node: OrganizationTreeNode): Promise<void> => {
    setRefusal(null);
    try {
      await deleteOrganizations([node.id]);
      Message.success(t('deleted'));
    } catch (err) {
      setRefusal(errorMessage(err));
    }
    await reloadOrganizationTree();
  };

  return (
    <div className="ec-organization" data-testid="organization-page">
      <Card
        title={t('title')}
        bordered={false}
        extra={
          <span className="ec-organization__toolbar">
            <Button
              icon={<IconRefresh />}
              aria-label={t('table:refresh')}
              title={t('table:refresh')}
              onClick={() => void reloadOrganizationTree()}
              data-testid="organization-refresh"
            />
            <Button type="primary" icon={<IconPlus />} onClick={() => setEdit({ kind: 'create', parent: null })} data-testid="organization-create">
              {t('createRoot')}
            </Button>
          </span>
        }
      >
        <p className="ec-organization__intro">{t('intro')}</p>
        {refusal ? (
          <div role="alert" className="ec-organization__refusal" data-testid="organization-refusal">
            <Alert type="error" title={t('deleteRefused')} content={refusal} closable onClose={() => setRefusal(null)} />
          </div>
        ) : null}
        {tree.length > 0 ? (
          <OrganizationFilter
            search={search}
            onSearch={setSearch}
            count={keys.length}
            onExpandAll={() => setCollapsed(new Set())}
            onCollapseAll={() => setCollapsed(new Set(keys))}
          />
        ) : null}
        <OrganizationTreeBody
          loading={loading}
          loaded={loaded}
          empty={tree.length === 0}
          options={options}
          expandedKeys={expandedKeys}
          search={search}
          onExpand={(next) => {
            if (search.trim()) return;
            setCollapsed(new Set(keys.filter((key) => !next.includes(key))));
          }}
          onCreateRoot={() => setEdit({ kind: 'create', parent: null })}
          actions={(node) => <OrganizationNodeActions node={node} onEdit={setEdit} onRemove={remove} />}
        />
      </Card>
      <OrganizationDrawer edit={edit} onClose={() => setEdit(null)} />
    </div>
  );
}
