/** Several organizations from the organization tree (a user's memberships); a customer sees the devices of each and of those below. */
import { useMemo, type JSX } from 'react';
import TreeSelect from '@arco-design/web-react/es/TreeSelect';
import type { OrganizationTreeNode } from '../../../server/contract/organization.ts';
import { useOrganizationTree } from '../organization/organizationTree.ts';

interface Option {
  key: string;
  title: string;
  children?: Option[];
}

function toOptions(nodes: readonly OrganizationTreeNode[]): Option[] {
  return nodes.map((node) => ({ key: node.id, title: node.name, ...(node.children.length ? { children: toOptions(node.children) } : {}) }));
}

export interface OrganizationsSelectProps {
  value?: string[];
  onChange?: (value: string[]) => void;
  placeholder?: string;
  testId: string;
  ariaLabel: string;
}

export function OrganizationsSelect({ value, onChange, placeholder, testId, ariaLabel }: OrganizationsSelectProps): JSX.Element {
  const { tree } = useOrganizationTree();
  const options = useMemo(() => toOptions(tree), [tree]);
  return (
    <TreeSelect
      multiple
      allowClear
      showSearch
      treeData={options}
      value={value ?? []}
      onChange={(next: string[]) => onChange?.(next)}
      placeholder={placeholder}
      data-testid={testId}
      aria-label={ariaLabel}
    />
  );
}
