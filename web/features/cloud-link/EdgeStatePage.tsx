/**
 * System → edge state: the cloud link, live over /api/ws.
 * Status with the last error, the gateway's name and id in the cloud, edge type, key, the secret
 * masked (an administrator may show it), last connect and disconnect, what waits for the cloud,
 * messages sent today and backlog dropped for age.
 */
import { useState, type JSX } from 'react';
import Alert from '@arco-design/web-react/es/Alert';
import Button from '@arco-design/web-react/es/Button';
import Card from '@arco-design/web-react/es/Card';
import Descriptions from '@arco-design/web-react/es/Descriptions';
import Spin from '@arco-design/web-react/es/Spin';
import IconEye from '@arco-design/web-react/icon/react-icon/IconEye';
import IconEyeInvisible from '@arco-design/web-react/icon/react-icon/IconEyeInvisible';
import { useTranslation } from 'react-i18next';
import type { EdgeState } from '../../../server/contract/cloud-link.ts';
import { EnumTag } from '../../components/EnumTag.tsx';
import { formatDateTime } from '../../lib/date-format.ts';
import { revealSecret } from './edgeStateApi.ts';
import { useEdgeState } from './useEdgeState.ts';
import './edge-state.css';

export const edgeStatusColors: Record<EdgeState['status'], string> = {
  NOT_CONFIGURED: 'gray',
  CONNECTING: 'arcoblue',
  CONNECTED: 'green',
  DISCONNECTED: 'red',
};

const MASK = '••••••••';

function SecretValue(): JSX.Element {
  const { t } = useTranslation('cloudLink');
  const [secret, setSecret] = useState<string | null>(null);
  const toggle = (): void => {
    if (secret !== null) setSecret(null);
    else revealSecret().then(setSecret, () => undefined);
  };
  return (
    <span className="ec-edge-state__secret">
      <code data-testid="edge-secret">{secret ?? MASK}</code>
      <Button
        size="mini"
        type="text"
        icon={secret === null ? <IconEye /> : <IconEyeInvisible />}
        aria-label={secret === null ? t('edgeState.reveal') : t('edgeState.hide')}
        title={secret === null ? t('edgeState.reveal') : t('edgeState.hide')}
        onClick={toggle}
        data-testid="edge-secret-toggle"
      />
    </span>
  );
}

export function EdgeStatePage(): JSX.Element {
  const { t } = useTranslation('cloudLink');
  const { state, loading } = useEdgeState();
  const time = (ms: number | undefined): string => (ms === undefined ? t('edgeState.never') : formatDateTime(ms));
  const backlog = (s: EdgeState): string =>
    s.backlog.messages === 0 ? t('edgeState.backlogEmpty') : t('edgeState.backlogText', { count: s.backlog.messages, oldest: time(s.backlog.oldestTs) });

  return (
    <div className="ec-edge-state" data-testid="edge-state">
      <Card title={<h2 className="ec-edge-state__title">{t('edgeState.title')}</h2>} bordered={false}>
        {loading || !state ? (
          <Spin tip={t('edgeState.loading')} data-testid="edge-state-loading" />
        ) : (
          <>
            {state.status === 'NOT_CONFIGURED' ? <Alert className="ec-edge-state__note" type="info" content={t('edgeState.notConfigured')} /> : null}
            <Descriptions
              column={{ xs: 1, sm: 1, md: 2, lg: 2, xl: 2, xxl: 2 }}
              border
              size="small"
              data={[
                {
                  label: t('edgeState.fields.status'),
                  value: <EnumTag ns="cloudLink" group="edgeState.status" value={state.status} colors={edgeStatusColors} testId="edge-status" />,
                },
                { label: t('edgeState.fields.lastError'), value: <span data-testid="edge-last-error">{state.lastError ?? '-'}</span> },
                { label: t('edgeState.fields.edgeName'), value: <span data-testid="edge-name">{state.edgeName}</span> },
                { label: t('edgeState.fields.edgeId'), value: state.edgeId ?? t('edgeState.notAssigned') },
                { label: t('edgeState.fields.edgeType'), value: <EnumTag ns="product" group="deviceType" value={state.edgeType} testId="edge-type" /> },
                { label: t('edgeState.fields.edgeKey'), value: <code data-testid="edge-key">{state.edgeKey || '-'}</code> },
                { label: t('edgeState.fields.edgeSecret'), value: state.status === 'NOT_CONFIGURED' ? '-' : <SecretValue /> },
                { label: t('edgeState.fields.lastConnectTime'), value: <span data-testid="edge-last-connect">{time(state.lastConnectTime)}</span> },
                { label: t('edgeState.fields.lastDisconnectTime'), value: time(state.lastDisconnectTime) },
                { label: t('edgeState.fields.backlog'), value: <span data-testid="edge-backlog">{backlog(state)}</span> },
                { label: t('edgeState.fields.sentToday'), value: <span data-testid="edge-sent-today">{state.sentToday}</span> },
                { label: t('edgeState.fields.dropped'), value: state.dropped },
              ]}
            />
          </>
        )}
      </Card>
    </div>
  );
}
