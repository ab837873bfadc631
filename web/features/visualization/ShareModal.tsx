/**
 * A configuration's share link: create one (optionally expiring), see it once with a copy button,
 * revoke it. The server keeps only the token's hash, so an existing link cannot be shown again:
 * creating a new one replaces it.
 */
import { useState, type JSX } from 'react';
import Button from '@arco-design/web-react/es/Button';
import DatePicker from '@arco-design/web-react/es/DatePicker';
import Input from '@arco-design/web-react/es/Input';
import Modal from '@arco-design/web-react/es/Modal';
import Space from '@arco-design/web-react/es/Space';
import { useTranslation } from 'react-i18next';
import type { ShareLink, VisualizationSummary } from '../../../server/contract/visualization.ts';
import { copyText } from '../../lib/clipboard.ts';
import { Message } from '../../lib/message.ts';
import { revokeShare, shareVisualization } from './visualizationApi.ts';

export function ShareModal(props: { config: VisualizationSummary | null; onClose: () => void; onChanged: () => void }): JSX.Element {
  const { t } = useTranslation('visualization');
  const { config } = props;
  const [expiresAt, setExpiresAt] = useState<number | undefined>(undefined);
  const [link, setLink] = useState<ShareLink | null>(null);
  const close = (): void => {
    setLink(null);
    setExpiresAt(undefined);
    props.onClose();
  };
  const create = async (): Promise<void> => {
    setLink(await shareVisualization(config!.id, expiresAt));
    props.onChanged();
  };
  const revoke = async (): Promise<void> => {
    await revokeShare(config!.id);
    setLink(null);
    Message.success(t('share.revoked'));
    props.onChanged();
  };
  const url = link ? `${window.location.origin}${link.url}` : '';
  return (
    <Modal visible={config !== null} title={t('share.title', { name: config?.name ?? '' })} onCancel={close} footer={null} unmountOnExit>
      <Space direction="vertical" style={{ width: '100%' }}>
        <span className="ec-vis__muted">{t('share.hint')}</span>
        {link ? (
          <Input readOnly value={url} aria-label={t('share.link')} data-testid="vis-share-url" addAfter={<span onClick={() => void copyText(url).then(() => Message.success(t('share.copied')))}>{t('share.copy')}</span>} />
        ) : (
          <Space align="end">
            <label className="ec-vis__field">
              <span>{t('share.expiresAt')}</span>
              <DatePicker showTime onChange={(_: string, d?: { valueOf(): number }) => setExpiresAt(d ? d.valueOf() : undefined)} data-testid="vis-share-expiry" />
            </label>
            <Button type="primary" onClick={() => void create()} data-testid="vis-share-create">
              {config?.shared ? t('share.replace') : t('share.create')}
            </Button>
          </Space>
        )}
        {config?.shared || link ? (
          <Button status="danger" onClick={() => void revoke()} data-testid="vis-share-revoke">
            {t('share.revoke')}
          </Button>
        ) : null}
      </Space>
    </Modal>
  );
}
