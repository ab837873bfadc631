/**
 * The organization field of every form and filter (one tree select for every organization
 * field): loads `GET /api/yt/organization/tree` once per session (shared with the organization
 * page, reloaded when organizations change), searchable by name, clearable.
 *
 * @example
 * <Form.Item field="organizationId" label={t('organization')}>
 *   <OrganizationTreeSelect testId="device-form-organization" />
 * </Form.Item>
 * // moving an organization: its own subtree cannot be chosen
 * <OrganizationTreeSelect excludeSubtreeOf={org.id} testId="organization-form-parent" />
 */
import { useMemo, type CSSProperties, type JSX } from 'react';
import TreeSelect from '@arco-design/web-react/es/TreeSelect';
import { useTranslation } from 'react-i18next';
import type { OrganizationTreeNode } from '../../../server/contract/organization.ts';
import { subtreeIds, useOrganizationTree } from './organizationTree.ts';

export interface OrganizationTreeSelectProps {
  value?: string | null;
  onChange?: (value: string | null) => void;
  /** This organization and its descendants are shown but cannot be chosen. */
  excludeSubtreeOf?: string;
  placeholder?: string;
  disabled?: boolean;
  allowClear?: boolean;
  testId: string;
  status?: 'error' | 'warning';
  style?: CSSProperties;
}

interface TreeOption {
  key: string;
  title: string;
  disabled?: boolean;
  children?: TreeOption[];
}

/** The tree as select options, `blocked` ones disabled; also the users page's several-organization select. */
export function organizationOptions(nodes: readonly OrganizationTreeNode[], blocked: ReadonlySet<string> = new Set()): TreeOption[] {
  return nodes.map((node) => ({
    key: node.id,
    title: node.name,
    disabled: blocked.has(node.id) || undefined,
    children: node.children.length ? organizationOptions(node.children, blocked) : undefined,
  }));
}

/** Search by name (Arco's default would match the option key, the organization's id). */
export function matchesOrganizationName(input: string, node: { props: { title?: string } }): boolean {
  return (node.props.title ?? '').toLowerCase().includes(String(input).toLowerCase());
}

export function OrganizationTreeSelect(props: OrganizationTreeSelectProps): JSX.Element {
  const { t } = useTranslation('table');
  const { tree, loading, failed } = useOrganizationTree();
  const options = useMemo(
    () => organizationOptions(tree, props.excludeSubtreeOf ? subtreeIds(tree, props.excludeSubtreeOf) : new Set()),
    [tree, props.excludeSubtreeOf],
  );
  return (
    <TreeSelect
      treeData={options}
      value={props.value ?? undefined}
      onChange={(value: string | undefined) => props.onChange?.(value ?? null)}
      placeholder={failed ? t('organizationLoadFailed') : (props.placeholder ?? t('organizationPlaceholder'))}
      loading={loading}
      disabled={props.disabled}
      allowClear={props.allowClear ?? true}
      showSearch
      filterTreeNode={matchesOrganizationName}
      status={props.status}
      style={props.style}
      data-testid={props.testId}
    />
  );
}
