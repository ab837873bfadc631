/** The columns of the thing model table: function type, name, identifier, definition, status, updated, edit and delete. */
import Button from '@arco-design/web-react/es/Button';
import type { ColumnProps } from '@arco-design/web-react/es/Table';
import IconEdit from '@arco-design/web-react/icon/react-icon/IconEdit';
import { useTranslation } from 'react-i18next';
import type { ThingModelItem } from '../../../server/contract/thing-model.ts';
import { ConfirmButton } from '../../components/ConfirmButton.tsx';
import { EnumTag } from '../../components/EnumTag.tsx';
import { formatDateTime } from '../../lib/date-format.ts';
import { ItemDefinition } from './ItemDefinition.tsx';

const functionTypeColors: Record<string, string> = { properties: 'blue', services: 'purple', events: 'orangered' };
const itemStatusColors: Record<string, string> = { DRAFT: 'orange', PUBLISHED: 'green' };

export function useThingModelColumns(opts: {
  onEdit: (item: ThingModelItem) => void;
  /** Deletes the item (after the row's confirmation). */
  onDelete: (item: ThingModelItem) => Promise<void>;
}): ColumnProps<ThingModelItem>[] {
  const { onEdit, onDelete } = opts;
  const { t } = useTranslation(['thingModel', 'table']);
  return [
    {
      title: t('columns.functionType'),
      dataIndex: 'functionType',
      width: 100,
      render: (value: string) => <EnumTag ns="thingModel" group="functionType" value={value} colors={functionTypeColors} />,
    },
    { title: t('columns.functionName'), dataIndex: 'functionName', render: (v: string, row) => <span data-testid={`tm-row-${row.identifier}`}>{v}</span> },
    { title: t('columns.identifier'), dataIndex: 'identifier', render: (v: string) => <code>{v}</code> },
    { title: t('columns.definition'), key: 'definition', render: (_: unknown, row) => <ItemDefinition item={row} /> },
    {
      title: t('columns.status'),
      dataIndex: 'status',
      width: 100,
      render: (value: string, row) => <EnumTag ns="thingModel" group="itemStatus" value={value} colors={itemStatusColors} testId={`tm-status-${row.identifier}`} />,
    },
    { title: t('table:updatedTime'), dataIndex: 'updatedTime', width: 170, render: (v: number) => formatDateTime(v) },
    {
      title: t('table:actions'),
      key: 'actions',
      width: 170,
      fixed: 'right',
      render: (_: unknown, row) => (
        <span className="ec-tm-actions">
          <Button type="text" size="small" icon={<IconEdit />} onClick={() => onEdit(row)} data-testid={`tm-edit-${row.identifier}`}>
            {t('table:edit')}
          </Button>
          <ConfirmButton
            testId={`tm-delete-${row.identifier}`}
            title={t('deleteConfirm', { name: row.functionName })}
            onConfirm={() => onDelete(row)}
          >
            {t('table:delete')}
          </ConfirmButton>
        </span>
      ),
    },
  ];
}
