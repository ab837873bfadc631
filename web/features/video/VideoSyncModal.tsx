/**
 * ONVIF channel sync (POST /api/yt/video/sync): host, port, user name and password of a camera or
 * recorder. The answer comes once the channels are stored; their probes follow, so the list is
 * refreshed at once and again a little later ("channel synced, refresh later"). A failure (wrong
 * password, clock skew, timeout, not ONVIF) stays in the dialog, in the server's words.
 */
import { useState, type JSX } from 'react';
import Button from '@arco-design/web-react/es/Button';
import Form from '@arco-design/web-react/es/Form';
import Input from '@arco-design/web-react/es/Input';
import InputNumber from '@arco-design/web-react/es/InputNumber';
import Message from '@arco-design/web-react/es/Message';
import { useTranslation } from 'react-i18next';
import { ONVIF_PORT_DEFAULT, VIDEO_TEXT_MAX, type VideoSyncBody, type VideoSyncResult } from '../../../server/contract/video.ts';
import { FormError } from '../../components/FormError.tsx';
import { GuardedModal } from '../../components/GuardedModal.tsx';
import { errorMessage, serverFieldErrors } from '../../lib/error-text.ts';
import { requiredRule } from '../../lib/form-rules.ts';
import { syncChannels } from './videoApi.ts';

export interface VideoSyncModalProps {
  visible: boolean;
  onClose: () => void;
  onSynced: (result: VideoSyncResult) => void;
}

export function VideoSyncModal({ visible, onClose, onSynced }: VideoSyncModalProps): JSX.Element {
  const { t } = useTranslation('video');
  return (
    <GuardedModal visible={visible} title={t('sync.title')} width={480} onClose={onClose}>
      {({ setDirty, requestClose, close }) => (
        <SyncForm
          setDirty={setDirty}
          onCancel={requestClose}
          onSynced={(result) => {
            close();
            onSynced(result);
          }}
        />
      )}
    </GuardedModal>
  );
}

function SyncForm({ setDirty, onCancel, onSynced }: { setDirty: (dirty: boolean) => void; onCancel: () => void; onSynced: (result: VideoSyncResult) => void }): JSX.Element {
  const { t } = useTranslation(['video', 'common']);
  const [form] = Form.useForm<VideoSyncBody>();
  const [syncing, setSyncing] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  const submit = async (values: VideoSyncBody): Promise<void> => {
    setSyncing(true);
    setFailure(null);
    try {
      const result = await syncChannels({ ...values, host: values.host.trim(), password: values.password ?? '' });
      Message.success(t('sync.done', result));
      onSynced(result);
    } catch (err) {
      const fields = serverFieldErrors(err, values, ['host', 'port', 'username', 'password']);
      if (fields) form.setFields(fields);
      else setFailure(errorMessage(err));
    } finally {
      setSyncing(false);
    }
  };

  return (
    <Form<VideoSyncBody>
      form={form}
      layout="vertical"
      initialValues={{ port: ONVIF_PORT_DEFAULT }}
      onSubmit={(values) => void submit(values)}
      onValuesChange={() => setDirty(true)}
      disabled={syncing}
      data-testid="video-sync-form"
    >
      <p style={{ color: 'var(--color-text-3)', marginTop: 0 }}>{t('sync.hint')}</p>
      <Form.Item field="host" label={t('fields.host')} rules={[requiredRule()]} required>
        <Input placeholder="192.168.1.64" maxLength={{ length: 255, errorOnly: true }} data-testid="video-sync-host" />
      </Form.Item>
      <Form.Item field="port" label={t('sync.port')} extra={t('sync.portHint')}>
        <InputNumber min={1} max={65535} precision={0} data-testid="video-sync-port" />
      </Form.Item>
      <Form.Item field="username" label={t('fields.username')} rules={[requiredRule()]} required>
        <Input autoComplete="off" maxLength={{ length: VIDEO_TEXT_MAX, errorOnly: true }} data-testid="video-sync-username" />
      </Form.Item>
      <Form.Item field="password" label={t('fields.password')}>
        <Input.Password autoComplete="new-password" maxLength={{ length: VIDEO_TEXT_MAX, errorOnly: true }} data-testid="video-sync-password" />
      </Form.Item>
      <FormError message={failure} testId="video-sync-error" />
      <div className="ec-modal-actions">
        <Button onClick={onCancel} disabled={syncing} data-testid="video-sync-cancel">
          {t('common:cancel')}
        </Button>
        <Button type="primary" htmlType="submit" loading={syncing} data-testid="video-sync-submit">
          {t('sync.submit')}
        </Button>
      </div>
    </Form>
  );
}
