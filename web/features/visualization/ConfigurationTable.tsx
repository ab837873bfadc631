/**
 * Configurations as a table (thumbnail, name, platform, shared, saved time) with name and platform
 * filters; the list, template and sandbox pages pass their own actions and toolbar.
 */
import { useMemo, type JSX, type ReactNode } from 'react';
import Form from '@arco-design/web-react/es/Form';
import Input from '@arco-design/web-react/es/Input';
import Tag from '@arco-design/web-react/es/Tag';
import type { ColumnProps } from '@arco-design/web-react/es/Table';
import { useTranslation } from 'react-i18next';
import { visualizationPlatforms, visualizationRoutes, type VisualizationSummary } from '../../../server/contract/visualization.ts';
import { EnumSelect } from '../../components/EnumSelect.tsx';
import { EnumTag } from '../../components/EnumTag.tsx';
import { ResourceTable } from '../../components/ResourceTable.tsx';
import { formatDateTime } from '../../lib/date-format.ts';
import { useList, type ListController } from '../../lib/use-list.ts';
import { deleteVisualizations } from './visualizationApi.ts';

export type ConfigurationList = ListController<VisualizationSummary, { name?: string; platform?: 'pc' | 'phone'; template?: boolean }>;

export function useConfigurationList(template: boolean): ConfigurationList {
  return useList(visualizationRoutes.list, { urlFilters: { name: 'string', platform: 'string' }, scope: { template } }) as ConfigurationList;
}

export function ConfigurationTable(props: { list: ConfigurationList; testId: string; actions: (row: VisualizationSummary) => ReactNode; toolbar?: ReactNode; emptyText: string }): JSX.Element {
  const { t } = useTranslation(['visualization', 'table']);
  const { actions } = props;
  const columns = useMemo<ColumnProps<VisualizationSummary>[]>(
    () => [
      {
        title: t('fields.thumbnail'),
        dataIndex: 'thumbnail',
        width: 140,
        render: (v: string | undefined) => (v ? <img className="ec-vis__thumb" src={v} alt="" /> : <span className="ec-vis__thumb ec-vis__thumb--empty" />),
      },
      { title: t('fields.name'), dataIndex: 'name', width: 220, ellipsis: true, render: (v: string) => <strong>{v}</strong> },
      { title: t('fields.platform'), dataIndex: 'platform', width: 110, render: (v: string) => <EnumTag ns="visualization" group="platforms" value={v} /> },
      { title: t('fields.shared'), dataIndex: 'shared', width: 110, render: (v: boolean, row) => (v ? <Tag color="green" data-testid={`vis-shared-${row.id}`}>{t('sharedOn')}</Tag> : '—') },
      { title: t('fields.updatedTime'), dataIndex: 'updatedTime', width: 180, render: (v: number) => formatDateTime(v) },
      { title: t('table:actions'), key: 'actions', width: 300, fixed: 'right', render: (_: unknown, row) => <span style={{ display: 'inline-flex', gap: 4 }}>{actions(row)}</span> },
    ],
    [t, actions],
  );
  return (
    <ResourceTable<VisualizationSummary, ConfigurationList['filters']>
      testId={props.testId}
      list={props.list}
      rowKey="id"
      columns={columns}
      scrollX={1060}
      emptyText={props.emptyText}
      onBulkDelete={(ids) => deleteVisualizations(ids)}
      filters={
        <>
          <Form.Item field="name" label={t('fields.name')}>
            <Input allowClear placeholder={t('fields.namePlaceholder')} data-testid={`${props.testId}-filter-name`} style={{ width: 180 }} />
          </Form.Item>
          <Form.Item field="platform" label={t('fields.platform')}>
            <EnumSelect ns="visualization" group="platforms" values={visualizationPlatforms} allowClear placeholder={t('table:all')} testId={`${props.testId}-filter-platform`} style={{ width: 120 }} />
          </Form.Item>
        </>
      }
      toolbar={props.toolbar}
    />
  );
}
