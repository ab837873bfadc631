/**
 * System → Organization: the organization tree with name and sort;
 * create (top level or under a node), edit, move and delete. A refused delete (sub-organizations
 * or devices left) stays on screen with the server's reason until dismissed.
 */
import { useMemo, useState, type JSX } from 'react';
import Alert from '@arco-design/web-react/es/Alert';
import Button from '@arco-design/web-react/es/Button';
import Card from '@arco-design/web-react/es/Card';
import Empty from '@arco-design/web-react/es/Empty';
import Input from '@arco-design/web-react/es/Input';
import Message from '@arco-design/web-react/es/Message';
import Spin from '@arco-design/web-react/es/Spin';
import Tag from '@arco-design/web-react/es/Tag';
import Tree from '@arco-design/web-react/es/Tree';
import IconDelete from '@arco-design/web-react/icon/react-icon/IconDelete';
import IconDragArrow from '@arco-design/web-react/icon/react-icon/IconDragArrow';
import IconEdit from '@arco-design/web-react/icon/react-icon/IconEdit';
import IconPlus from '@arco-design/web-react/icon/react-icon/IconPlus';
import IconRefresh from '@arco-design/web-react/icon/react-icon/IconRefresh';
import { useTranslation } from 'react-i18next';
import type { OrganizationTreeNode } from '../../../server/contract/organization.ts';
import { ConfirmButton } from '../../components/ConfirmButton.tsx';
import { reloadOrganizationTree, useOrganizationTree } from './organizationTree.ts';
import { errorMessage } from '../../lib/error-text.ts';
import { OrganizationDrawer, type OrganizationEdit } from './OrganizationDrawer.tsx';
import { deleteOrganizations } from './organizationApi.ts';
import './organization.css';

interface TreeOption {
  key: string;
  title: string;
  node: OrganizationTreeNode;
  children?: TreeOption[];
}

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

  const actions = (node: OrganizationTreeNode): JSX.Element => (
    <span className="ec-organization__actions" role="group" aria-label={t('actionsOf', { name: node.name })}>
      <Button
        type="text"
        size="mini"
        icon={<IconPlus />}
        title={t('createChild')}
        aria-label={t('createChild')}
        onClick={() => setEdit({ kind: 'create', parent: node })}
        data-testid={`organization-add-child-${node.id}`}
      />
      <Button
        type="text"
        size="mini"
        icon={<IconEdit />}
        title={t('edit')}
        aria-label={t('edit')}
        onClick={() => setEdit({ kind: 'edit', node })}
        data-testid={`organization-edit-${node.id}`}
      />
      <Button
        type="text"
        size="mini"
        icon={<IconDragArrow />}
        title={t('move')}
        aria-label={t('move')}
        onClick={() => setEdit({ kind: 'move', node })}
        data-testid={`organization-move-${node.id}`}
      />
      <ConfirmButton
        size="mini"
        icon={<IconDelete />}
        aria-label={t('delete')}
        title={t('deleteConfirm', { name: node.name })}
        onConfirm={() => remove(node)}
        testId={`organization-delete-${node.id}`}
      />
    </span>
  );

  const body = (): JSX.Element => {
    if (!loaded && loading) return <Spin block className="ec-organization__loading" />;
    if (tree.length === 0) {
      return (
        <Empty
          data-testid="organization-empty"
          description={
            <div className="ec-organization__empty">
              <strong>{t('empty')}</strong>
              <span>{t('emptyHint')}</span>
              <Button type="primary" icon={<IconPlus />} onClick={() => setEdit({ kind: 'create', parent: null })}>
                {t('createRoot')}
              </Button>
            </div>
          }
        />
      );
    }
    if (options.length === 0) return <Empty description={t('noMatch', { text: search.trim() })} />;
    return (
      <Tree
        blockNode
        showLine
        selectable={false}
        treeData={options}
        expandedKeys={expandedKeys}
        onExpand={(next: string[]) => {
          if (search.trim()) return;
          setCollapsed(new Set(keys.filter((key) => !next.includes(key))));
        }}
        renderTitle={(props) => {
          const node = (props as unknown as { dataRef: TreeOption }).dataRef.node;
          return (
            <span className="ec-organization__node" data-testid={`organization-node-${node.id}`}>
              <span className="ec-organization__name">{node.name}</span>
              <Tag size="small" bordered={false} className="ec-organization__sort">
                {t('sortTag', { sort: node.sort })}
              </Tag>
            </span>
          );
        }}
        renderExtra={(props) => actions((props as unknown as { dataRef: TreeOption }).dataRef.node)}
      />
    );
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
          <div className="ec-organization__filter">
            <Input.Search
              allowClear
              value={search}
              onChange={setSearch}
              placeholder={t('search')}
              aria-label={t('search')}
              style={{ maxWidth: 320 }}
              data-testid="organization-search"
            />
            <span className="ec-organization__count">{t('count', { count: keys.length })}</span>
            <Button type="text" size="small" onClick={() => setCollapsed(new Set())} data-testid="organization-expand-all">
              {t('expandAll')}
            </Button>
            <Button type="text" size="small" onClick={() => setCollapsed(new Set(keys))} data-testid="organization-collapse-all">
              {t('collapseAll')}
            </Button>
          </div>
        ) : null}
        {body()}
      </Card>
      <OrganizationDrawer edit={edit} onClose={() => setEdit(null)} />
    </div>
  );
}
