/** Several organizations from the organization tree (a user's memberships); a customer sees the devices of each and of those below. */
import { useMemo, type JSX } from 'react';
import TreeSelect from '@arco-design/web-react/es/TreeSelect';
import { useTranslation } from 'react-i18next';
import { matchesOrganizationName, organizationOptions } from '../organization/OrganizationTreeSelect.tsx';
import { useOrganizationTree } from '../organization/organizationTree.ts';

export interface OrganizationsSelectProps {
  value?: string[];
  onChange?: (value: string[]) => void;
  placeholder?: string;
  testId: string;
  ariaLabel: string;
}

export function OrganizationsSelect({ value, onChange, placeholder, testId, ariaLabel }: OrganizationsSelectProps): JSX.Element {
  const { t } = useTranslation('table');
  const { tree, loading, failed } = useOrganizationTree();
  const options = useMemo(() => organizationOptions(tree), [tree]);
  return (
    <TreeSelect
      multiple
      allowClear
      showSearch
      filterTreeNode={matchesOrganizationName}
      loading={loading}
      treeData={options}
      value={value ?? []}
      onChange={(next: string[]) => onChange?.(next)}
      placeholder={failed ? t('organizationLoadFailed') : placeholder}
      data-testid={testId}
      aria-label={ariaLabel}
    />
  );
}
