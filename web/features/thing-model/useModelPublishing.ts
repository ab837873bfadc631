/**
 * The thing model's draft against published: its status, publishing, and after any edit the
 * question whether to publish now (only a published model reaches devices).
 */
import { useCallback, useEffect, useState } from 'react';
import Message from '@arco-design/web-react/es/Message';
import Modal from '@arco-design/web-react/es/Modal';
import { useTranslation } from 'react-i18next';
import type { Product } from '../../../server/contract/product.ts';
import type { ThingModelStatus } from '../../../server/contract/thing-model.ts';
import { getProduct } from '../product/productApi.ts';
import { modelStatus, publishModel } from './thingModelApi.ts';

export interface ModelPublishing {
  status: ThingModelStatus | null;
  publish: () => Promise<void>;
  /** After any change: shows `message`, refreshes, and asks whether to go live now. */
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

  /** After any change: refresh, and ask whether to go live now (only a published model reaches devices). */
  const changed = async (message: string): Promise<void> => {
    Message.success(message);
    const [, next] = await Promise.all([listRefresh(), loadStatus()]);
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

  return { status, publish, changed };
}
