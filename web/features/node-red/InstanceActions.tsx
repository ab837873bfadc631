/** Start / stop / restart and "open editor" of one instance, shared by the list's rows and the detail page. */
import { useState, type JSX } from 'react';
import Button from '@arco-design/web-react/es/Button';
import Message from '@arco-design/web-react/es/Message';
import { useTranslation } from 'react-i18next';
import type { NodeRedInstance } from '../../../server/contract/node-red.ts';
import { instanceAction, openEditor, type InstanceAction } from './nodeRedApi.ts';

const done: Record<InstanceAction, 'started' | 'stopped' | 'restarted'> = { start: 'started', stop: 'stopped', restart: 'restarted' };

export function InstanceActions({ instance, onChanged }: { instance: NodeRedInstance; onChanged: () => void }): JSX.Element {
  const { t } = useTranslation('nodeRed');
  const [busy, setBusy] = useState(false);
  const live = instance.status !== 'STOPPED';

  const act = async (action: InstanceAction): Promise<void> => {
    setBusy(true);
    try {
      await instanceAction(instance.id, action);
      Message.success(t(done[action]));
      onChanged();
    } finally {
      setBusy(false);
    }
  };

  const id = instance.id;
  return (
    <span style={{ display: 'inline-flex', gap: 4 }}>
      <Button type="text" size="small" disabled={instance.status !== 'RUNNING'} onClick={() => void openEditor(id).catch(() => undefined)} data-testid={`node-red-open-${id}`}>
        {t('openEditor')}
      </Button>
      {live ? (
        <Button type="text" size="small" loading={busy} onClick={() => void act('stop').catch(() => undefined)} data-testid={`node-red-stop-${id}`}>
          {t('stop')}
        </Button>
      ) : (
        <Button type="text" size="small" loading={busy} onClick={() => void act('start').catch(() => undefined)} data-testid={`node-red-start-${id}`}>
          {t('start')}
        </Button>
      )}
      <Button type="text" size="small" loading={busy} disabled={!live} onClick={() => void act('restart').catch(() => undefined)} data-testid={`node-red-restart-${id}`}>
        {t('restart')}
      </Button>
    </span>
  );
}
