/**
 * Product detail → thing model: the draft's properties, services and
 * events, paged and filtered by function type; create, edit and delete in a drawer; TSL view and
 * import. Edits only change the draft: the tab says when the draft differs from what devices use
 * and, after every change, asks whether to publish and go live.
 */
import { useCallback, useEffect, useState, type JSX } from 'react';
import Alert from '@arco-design/web-react/es/Alert';
import Button from '@arco-design/web-react/es/Button';
import Message from '@arco-design/web-react/es/Message';
import Modal from '@arco-design/web-react/es/Modal';
import Radio from '@arco-design/web-react/es/Radio';
import type { ColumnProps } from '@arco-design/web-react/es/Table';
import IconCode from '@arco-design/web-react/icon/react-icon/IconCode';
import IconEdit from '@arco-design/web-react/icon/react-icon/IconEdit';
import IconPlus from '@arco-design/web-react/icon/react-icon/IconPlus';
import { useTranslation } from 'react-i18next';
import {
  functionTypes,
  thingModelRoutes,
  type FunctionType,
  type ThingModelItem,
  type ThingModelStatus,
} from '../../../server/contract/thing-model.ts';
import { ConfirmButton } from '../../components/ConfirmButton.tsx';
import { EnumTag } from '../../components/EnumTag.tsx';
import { ResourceTable } from '../../components/ResourceTable.tsx';
import { formatDateTime } from '../../lib/date-format.ts';
import { useList } from '../../lib/use-list.ts';
import { getProduct } from '../product/productApi.ts';
import type { ProductTabProps } from '../product/productTab.ts';
import { ItemDefinition } from './ItemDefinition.tsx';
import { ThingModelDrawer } from './ThingModelDrawer.tsx';
import { deleteItems, modelStatus, publishModel } from './thingModelApi.ts';
import { TslImportButton } from './TslImportButton.tsx';
import { TslModal } from './TslModal.tsx';
import './thing-model.css';

export const functionTypeColors: Record<string, string> = { properties: 'blue', services: 'purple', events: 'orangered' };
export const itemStatusColors: Record<string, string> = { DRAFT: 'orange', PUBLISHED: 'green' };

type TypeFilter = FunctionType | 'all';

export function ThingModelTab({ product, onProductChange }: ProductTabProps): JSX.Element {
  const { t } = useTranslation(['thingModel', 'table']);
  const list = useList(thingModelRoutes.list, { params: { deviceProfileId: product.id }, syncUrl: false });
  const [status, setStatus] = useState<ThingModelStatus | null>(null);
  const [editing, setEditing] = useState<ThingModelItem | FunctionType | undefined>(undefined);
  const [tslOpen, setTslOpen] = useState(false);
  const filter: TypeFilter = list.filters.functionType ?? 'all';

  const loadStatus = useCallback(async (): Promise<ThingModelStatus | null> => {
    try {
      const next = await modelStatus(product.id);
      setStatus(next);
      return next;
    } catch {
      return null;
    }
  }, [product.id]);

  useEffect(() => {
    void loadStatus();
  }, [loadStatus]);

  const publish = async (): Promise<void> => {
    const next = await publishModel(product.id);
    setStatus(next);
    Message.success(t('publish.done', { version: next.publishedVersion ?? 1 }));
    await list.refresh();
    // Publishing the model publishes the product too: the header shows it.
    getProduct(product.id).then(onProductChange, () => undefined);
  };

  /** After any change: refresh, and ask whether to go live now (only a published model reaches devices). */
  const changed = async (message: string): Promise<void> => {
    Message.success(message);
    const [, next] = await Promise.all([list.refresh(), loadStatus()]);
    if (!next?.hasUnpublishedChanges) return;
    Modal.confirm({
      title: t('publish.askTitle'),
      content: t('publish.askContent'),
      okText: t('publish.now'),
      cancelText: t('publish.later'),
      okButtonProps: { ...({ 'data-testid': 'tm-publish-now' } as object) },
      cancelButtonProps: { ...({ 'data-testid': 'tm-publish-later' } as object) },
      onOk: async () => {
        try {
          await publish();
        } catch {
          // the client showed why (e.g. an empty model)
        }
      },
    });
  };

  const columns: ColumnProps<ThingModelItem>[] = [
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
          <Button type="text" size="small" icon={<IconEdit />} onClick={() => setEditing(row)} data-testid={`tm-edit-${row.identifier}`}>
            {t('table:edit')}
          </Button>
          <ConfirmButton
            testId={`tm-delete-${row.identifier}`}
            title={t('deleteConfirm', { name: row.functionName })}
            onConfirm={async () => {
              await deleteItems([row.id]);
              await changed(t('deleted'));
            }}
          >
            {t('table:delete')}
          </ConfirmButton>
        </span>
      ),
    },
  ];

  return (
    <section className="ec-tm" data-testid="thing-model-tab">
      <PublishState status={status} onPublish={publish} />
      <ResourceTable<ThingModelItem, typeof list.filters>
        testId="tm"
        list={list}
        rowKey="id"
        columns={columns}
        scrollX={1000}
        emptyText={t('empty')}
        onBulkDelete={async (ids) => {
          await deleteItems(ids);
          void changed(t('deleted'));
        }}
        toolbar={
          <span className="ec-tm-toolbar">
            <Radio.Group
              type="button"
              value={filter}
              onChange={(value: TypeFilter) => list.setFilters(value === 'all' ? {} : { functionType: value })}
              data-testid="tm-filter"
            >
              {(['all', ...functionTypes] as const).map((value) => (
                <Radio key={value} value={value} data-testid={`tm-filter-${value}`}>
                  {value === 'all' ? t('table:all') : t(`functionType.${value}`)}
                </Radio>
              ))}
            </Radio.Group>
            <Button icon={<IconCode />} onClick={() => setTslOpen(true)} data-testid="tm-tsl">
              {t('tsl.button')}
            </Button>
            <TslImportButton deviceProfileId={product.id} onImported={() => void changed(t('import.refreshed'))} />
            <Button
              type="primary"
              icon={<IconPlus />}
              onClick={() => setEditing(filter === 'all' ? 'properties' : filter)}
              data-testid="tm-create"
            >
              {t('create')}
            </Button>
          </span>
        }
      />
      <ThingModelDrawer
        product={product}
        editing={editing}
        onClose={() => setEditing(undefined)}
        onSaved={(item) => void changed(t('saved', { name: item.functionName }))}
      />
      <TslModal deviceProfileId={product.id} visible={tslOpen} hasPublished={(status?.publishedVersion ?? null) !== null} onClose={() => setTslOpen(false)} />
    </section>
  );
}

/** Draft against published, with the publish button while they differ. */
function PublishState({ status, onPublish }: { status: ThingModelStatus | null; onPublish: () => Promise<void> }): JSX.Element | null {
  const { t } = useTranslation('thingModel');
  if (!status) return null;
  const published = status.publishedVersion !== null;
  if (status.hasUnpublishedChanges) {
    return (
      <Alert
        className="ec-tm-status"
        type="warning"
        title={t('publish.unpublishedTitle')}
        content={published ? t('publish.unpublishedContent', { version: status.publishedVersion }) : t('publish.neverPublished')}
        action={
          <ConfirmButton
            danger={false}
            type="primary"
            size="default"
            okText={t('publish.button')}
            title={t('publish.confirm', { count: status.draftItemCount })}
            onConfirm={onPublish}
            testId="tm-publish"
          >
            {t('publish.button')}
          </ConfirmButton>
        }
        data-testid="tm-state-draft"
      />
    );
  }
  if (published) {
    return (
      <Alert
        className="ec-tm-status"
        type="success"
        content={t('publish.upToDate', {
          version: status.publishedVersion,
          time: formatDateTime(status.publishedTime),
          count: status.publishedItemCount,
        })}
        data-testid="tm-state-published"
      />
    );
  }
  return <Alert className="ec-tm-status" type="info" content={t('publish.empty')} data-testid="tm-state-empty" />;
}
