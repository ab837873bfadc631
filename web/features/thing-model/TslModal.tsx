/**
 * "Model TSL": the product's model as one read-only JSON document, the draft or
 * the published version, with copy and download (the download is the export file the import reads).
 */
import { useEffect, useState, type JSX } from 'react';
import Button from '@arco-design/web-react/es/Button';
import Empty from '@arco-design/web-react/es/Empty';
import Message from '@arco-design/web-react/es/Message';
import Modal from '@arco-design/web-react/es/Modal';
import Radio from '@arco-design/web-react/es/Radio';
import Space from '@arco-design/web-react/es/Space';
import Spin from '@arco-design/web-react/es/Spin';
import IconCopy from '@arco-design/web-react/icon/react-icon/IconCopy';
import IconDownload from '@arco-design/web-react/icon/react-icon/IconDownload';
import { useTranslation } from 'react-i18next';
import type { ThingModelTsl } from '../../../server/contract/thing-model.ts';
import { copyText } from '../../lib/clipboard.ts';
import { saveBlob } from '../../lib/download.ts';
import { CodeBlock } from '../../components/CodeBlock.tsx';
import { exportTsl } from './thingModelApi.ts';

export type TslVersion = 'draft' | 'published';

/** The export file's name: product name and version, safe for every file system. */
export function tslFileName(tsl: Pick<ThingModelTsl, 'productName' | 'version'>): string {
  const base = tsl.productName.replace(/[\\/:*?"<>|\s]+/g, '_') || 'thing-model';
  return `${base}-${tsl.version === null ? 'draft' : `v${tsl.version}`}.tsl.json`;
}

/** The draft or the published TSL of a product, reloaded when the choice changes. */
export function useTsl(deviceProfileId: string, version: TslVersion, enabled = true): { tsl: ThingModelTsl | null; loading: boolean } {
  const [tsl, setTsl] = useState<ThingModelTsl | null>(null);
  // Loading from the first render, so nobody reads "no model" before the first answer.
  const [loading, setLoading] = useState(enabled);
  useEffect(() => {
    if (!enabled) return undefined;
    let live = true;
    setLoading(true);
    setTsl(null);
    exportTsl(deviceProfileId, version === 'published', true).then(
      (doc) => live && setTsl(doc),
      () => live && setTsl(null),
    ).finally(() => live && setLoading(false));
    return () => {
      live = false;
    };
  }, [deviceProfileId, version, enabled]);
  return { tsl, loading };
}

export interface TslModalProps {
  deviceProfileId: string;
  visible: boolean;
  /** Whether a published version exists (the choice is offered only then). */
  hasPublished: boolean;
  onClose: () => void;
}

export function TslModal({ deviceProfileId, visible, hasPublished, onClose }: TslModalProps): JSX.Element {
  const { t } = useTranslation(['thingModel', 'credentials']);
  const [version, setVersion] = useState<TslVersion>('draft');
  const { tsl, loading } = useTsl(deviceProfileId, version, visible);
  const text = tsl ? JSON.stringify(tsl, null, 2) : '';

  const copy = async (): Promise<void> => {
    if (await copyText(text)) Message.success(t('credentials:copied'));
    else Message.warning(t('credentials:copyFailed'));
  };

  return (
    <Modal
      visible={visible}
      title={t('tsl.title')}
      onCancel={onClose}
      footer={null}
      unmountOnExit
      style={{ width: 760, maxWidth: 'calc(100vw - 32px)' }}
    >
      <div className="ec-tm" data-testid="tm-tsl-modal">
        <Space wrap style={{ justifyContent: 'space-between', width: '100%' }}>
          <Radio.Group type="button" value={version} onChange={(v: TslVersion) => setVersion(v)} data-testid="tm-tsl-version">
            <Radio value="draft" data-testid="tm-tsl-draft">
              {t('tsl.draft')}
            </Radio>
            <Radio value="published" disabled={!hasPublished} data-testid="tm-tsl-published">
              {t('tsl.published')}
            </Radio>
          </Radio.Group>
          <Space>
            <Button icon={<IconCopy />} disabled={!tsl} onClick={() => void copy()} data-testid="tm-tsl-copy">
              {t('tsl.copy')}
            </Button>
            <Button
              type="primary"
              icon={<IconDownload />}
              disabled={!tsl}
              onClick={() => tsl && saveBlob(new Blob([text], { type: 'application/json' }), tslFileName(tsl))}
              data-testid="tm-tsl-download"
            >
              {t('tsl.download')}
            </Button>
          </Space>
        </Space>
        <Spin loading={loading} block>
          {tsl ? (
            <CodeBlock text={text} testId="tm-tsl-json" label={t('tsl.title')} />
          ) : (
            <Empty description={loading ? ' ' : t('tsl.unavailable')} />
          )}
        </Spin>
      </div>
    </Modal>
  );
}
