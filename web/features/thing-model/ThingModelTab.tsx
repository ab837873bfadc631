/**
 * Product detail → thing model: the draft's properties, services and
 * events, paged and filtered by function type; create, edit and delete in a drawer; TSL view and
 * import. Edits only change the draft: a banner says when the draft differs from what devices use
 * and offers to publish; leaving the model with unpublished changes asks once whether to publish.
 */
import { useState, type JSX } from 'react';
import { useTranslation } from 'react-i18next';
import {
  thingModelRoutes,
  type FunctionType,
  type ThingModelItem,
} from '../../../server/contract/thing-model.ts';
import { ResourceTable } from '../../components/ResourceTable.tsx';
import { useList } from '../../lib/use-list.ts';
import type { ProductTabProps } from '../product/productTab.ts';
import { PublishState } from './PublishState.tsx';
import { ThingModelDrawer } from './ThingModelDrawer.tsx';
import { ThingModelToolbar, type TypeFilter } from './ThingModelToolbar.tsx';
import { deleteItems } from './thingModelApi.ts';
import { TslModal } from './TslModal.tsx';
import { useModelPublishing } from './useModelPublishing.ts';
import { useThingModelColumns } from './useThingModelColumns.tsx';
import './thing-model.css';

export function ThingModelTab({ product, onProductChange }: ProductTabProps): JSX.Element {
  const { t } = useTranslation(['thingModel', 'table']);
  const list = useList(thingModelRoutes.list, { params: { deviceProfileId: product.id }, syncUrl: false });
  const [editing, setEditing] = useState<ThingModelItem | FunctionType | undefined>(undefined);
  const [tslOpen, setTslOpen] = useState(false);
  const filter: TypeFilter = list.filters.functionType ?? 'all';

  const { status, publish, changed } = useModelPublishing({ productId: product.id, listRefresh: list.refresh, onProductChange });

  const columns = useThingModelColumns({
    onEdit: setEditing,
    onDelete: async (item) => {
      await deleteItems([item.id]);
      await changed(t('deleted'));
    },
  });

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
          <ThingModelToolbar
            filter={filter}
            onFilter={(value) => list.setFilters(value === 'all' ? {} : { functionType: value })}
            onTsl={() => setTslOpen(true)}
            deviceProfileId={product.id}
            onImported={() => void changed(t('import.refreshed'))}
            onCreate={() => setEditing(filter === 'all' ? 'properties' : filter)}
          />
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
