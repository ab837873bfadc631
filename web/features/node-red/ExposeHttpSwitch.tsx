/**
 * The per-instance "expose HTTP-in nodes" setting: off by default; on, the flows' HTTP-in endpoints
 * answer at the instance's HTTP path without the console's sign-in (the editor never does).
 */
import { useState, type JSX } from 'react';
import Switch from '@arco-design/web-react/es/Switch';
import Tooltip from '@arco-design/web-react/es/Tooltip';
import { useTranslation } from 'react-i18next';
import { nodeRedHttpPath, type NodeRedInstance } from '../../../server/contract/node-red.ts';
import { setExposeHttp } from './nodeRedApi.ts';

export function ExposeHttpSwitch({ instance, onChanged }: { instance: NodeRedInstance; onChanged: (next: NodeRedInstance) => void }): JSX.Element {
  const { t } = useTranslation('nodeRed');
  const [busy, setBusy] = useState(false);
  const path = nodeRedHttpPath(instance.id);
  const toggle = (exposeHttp: boolean): void => {
    setBusy(true);
    setExposeHttp(instance, exposeHttp)
      .then(onChanged, () => undefined)
      .finally(() => setBusy(false));
  };
  return (
    <span style={{ display: 'inline-flex', gap: 8, alignItems: 'center', flexWrap: 'wrap' }}>
      <Tooltip content={t('exposeHttpHelp', { path })}>
        <Switch size="small" checked={instance.exposeHttp} loading={busy} onChange={toggle} aria-label={t('exposeHttp')} data-testid="node-red-expose-http" />
      </Tooltip>
      <span>{instance.exposeHttp ? t('exposeHttpOn') : t('exposeHttpOff')}</span>
      {instance.exposeHttp && <code data-testid="node-red-http-path">{path}</code>}
    </span>
  );
}
