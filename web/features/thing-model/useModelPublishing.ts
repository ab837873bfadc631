/**
 * The thing model's draft against published: its status and publishing. Edits only refresh the
 * status (the tab's banner then says it is a draft); leaving the model while the draft has
 * unpublished changes asks once whether to publish now (only a published model reaches devices).
 */
import { useCallback, useEffect, useState } from 'react';
import Message from '@arco-design/web-react/es/Message';
import { useTranslation } from 'react-i18next';
import type { Product } from '../../../server/contract/product.ts';
import type { ThingModelStatus } from '../../../server/contract/thing-model.ts';
import { useLeaveGuard } from '../../lib/leave-guard.ts';
import { getProduct } from '../product/productApi.ts';
import { askPublishOnLeave } from './askPublishOnLeave.tsx';
import { modelStatus, publishModel } from './thingModelApi.ts';

export interface ModelPublishing {
  status: ThingModelStatus | null;
  publish: () => Promise<void>;
  /** After any change: shows `message` and refreshes the list and the status. */
  changed: (message: string) => Promise<void>;
}

export function useModelPublishing(opts: {
  productId: string;
  /** The item list's reload. */
  listRefresh: () => Promise<void>;
  /** Publishing the model publishes the product too: the page header shows the new one. */
  onProductChange: (product: Product) => void;
}): ModelPublishing {
  const { productId, listRefresh, onProductChange } = opts;
  const { t } = useTranslation('thingModel');
  const [status, setStatus] = useState<ThingModelStatus | null>(null);

  const loadStatus = useCallback(async (): Promise<ThingModelStatus | null> => {
    try {
      const next = await modelStatus(productId);
      setStatus(next);
      return next;
    } catch {
      return null;
    }
  }, [productId]);

  useEffect(() => {
    void loadStatus();
  }, [loadStatus]);

  const publish = async (): Promise<void> => {
    const next = await publishModel(productId);
    setStatus(next);
    Message.success(t('publish.done', { version: next.publishedVersion ?? 1 }));
    await listRefresh();
    // Publishing the model publishes the product too: the header shows it.
    getProduct(productId).then(onProductChange, () => undefined);
  };

  const changed = async (message: string): Promise<void> => {
    Message.success(message);
    await Promise.all([listRefresh(), loadStatus()]);
  };

  useLeaveGuard(status?.hasUnpublishedChanges === true, () => askPublishOnLeave(publish));

  return { status, publish, changed };
}
