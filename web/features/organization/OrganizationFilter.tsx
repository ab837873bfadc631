/** The bar above the organization tree: search by name, the node count, expand and collapse all. */
import type { JSX } from 'react';
import Button from '@arco-design/web-react/es/Button';
import Input from '@arco-design/web-react/es/Input';
import { useTranslation } from 'react-i18next';

export function OrganizationFilter(props: {
  search: string;
  onSearch: (text: string) => void;
  count: number;
  onExpandAll: () => void;
  onCollapseAll: () => void;
}): JSX.Element {
  const { t } = useTranslation('organization');
  return (
    <div className="ec-organization__filter">
      <Input.Search
        allowClear
        value={props.search}
        onChange={props.onSearch}
        placeholder={t('search')}
        aria-label={t('search')}
        style={{ maxWidth: 320 }}
        data-testid="organization-search"
      />
      <span className="ec-organization__count">{t('count', { count: props.count })}</span>
      <Button type="text" size="small" onClick={props.onExpandAll} data-testid="organization-expand-all">
        {t('expandAll')}
      </Button>
      <Button type="text" size="small" onClick={props.onCollapseAll} data-testid="organization-collapse-all">
        {t('collapseAll')}
      </Button>
    </div>
  );
}
