/** The organization page's body: a spinner while the first load runs, the empty state, "no match", or the tree. */
import type { JSX } from 'react';
import Button from '@arco-design/web-react/es/Button';
import Empty from '@arco-design/web-react/es/Empty';
import Spin from '@arco-design/web-react/es/Spin';
import Tag from '@arco-design/web-react/es/Tag';
import Tree from '@arco-design/web-react/es/Tree';
import IconPlus from '@arco-design/web-react/icon/react-icon/IconPlus';
import { useTranslation } from 'react-i18next';
import type { OrganizationTreeNode } from '../../../server/contract/organization.ts';

export interface TreeOption {
  key: string;
  title: string;
  node: OrganizationTreeNode;
  children?: TreeOption[];
}

function nodeOf(props: unknown): OrganizationTreeNode {
  return (props as { dataRef: TreeOption }).dataRef.node;
}

export function OrganizationTreeBody(props: {
  loading: boolean;
  loaded: boolean;
  /** True when the organization has no node at all (not just none matching). */
  empty: boolean;
  options: TreeOption[];
  expandedKeys: string[];
  search: string;
  onExpand: (keys: string[]) => void;
  onCreateRoot: () => void;
  actions: (node: OrganizationTreeNode) => JSX.Element;
}): JSX.Element {
  const { t } = useTranslation('organization');
  if (!props.loaded && props.loading) return <Spin block className="ec-organization__loading" />;
  if (props.empty) {
    return (
      <Empty
        data-testid="organization-empty"
        description={
          <div className="ec-organization__empty">
            <strong>{t('empty')}</strong>
            <span>{t('emptyHint')}</span>
            <Button type="primary" icon={<IconPlus />} onClick={props.onCreateRoot}>
              {t('createRoot')}
            </Button>
          </div>
        }
      />
    );
  }
  if (props.options.length === 0) return <Empty description={t('noMatch', { text: props.search.trim() })} />;
  return (
    <Tree
      blockNode
      showLine
      selectable={false}
      treeData={props.options}
      expandedKeys={props.expandedKeys}
      onExpand={props.onExpand}
      renderTitle={(title) => {
        const node = nodeOf(title);
        return (
          <span className="ec-organization__node" data-testid={`organization-node-${node.id}`}>
            <span className="ec-organization__name">{node.name}</span>
            <Tag size="small" bordered={false} className="ec-organization__sort">
              {t('sortTag', { sort: node.sort })}
            </Tag>
          </span>
        );
      }}
      renderExtra={(extra) => props.actions(nodeOf(extra))}
    />
  );
}
