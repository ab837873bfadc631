/**
 * System → network configuration: LAN, WAN, WiFi and 4G as the machine has them, changed under the
 * safe apply (docs/NETWORK.md): review the plan, apply, then confirm before the countdown ends or
 * the previous settings come back. When the apply moved the LAN address this browser uses, the
 * page goes to the new address with the applyId in `?confirm=` and confirms from there.
 */
import { useCallback, useEffect, useState, type JSX } from 'react';
import Alert from '@arco-design/web-react/es/Alert';
import Card from '@arco-design/web-react/es/Card';
import Message from '@arco-design/web-react/es/Message';
import Spin from '@arco-design/web-react/es/Spin';
import Tabs from '@arco-design/web-react/es/Tabs';
import { useTranslation } from 'react-i18next';
import type { NetworkApplyResult, NetworkChange, NetworkSettingsBody, NetworkState } from '../../../server/contract/network.ts';
import { FormError } from '../../components/FormError.tsx';
import { errorMessage } from '../../lib/error-text.ts';
import { ApplyDialog } from './ApplyDialog.tsx';
import { PendingApplyBanner } from './PendingApplyBanner.tsx';
import { SectionForm } from './SectionForm.tsx';
import { applyIdFromQuery, cutsSession, sections } from './network-form.ts';
import { confirmNetwork, loadNetwork } from './networkApi.ts';
import './network.css';

interface Planned {
  body: NetworkSettingsBody;
  changes: NetworkChange[];
}

export function NetworkConfigurationPage(): JSX.Element {
  const { t } = useTranslation('network');
  const [state, setState] = useState<NetworkState | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [planned, setPlanned] = useState<Planned | null>(null);
  const [moving, setMoving] = useState<string | null>(null);

  const reload = useCallback(async (): Promise<NetworkState | null> => {
    try {
      const s = await loadNetwork();
      setState(s);
      setFailure(null);
      return s;
    } catch (err) {
      setFailure(`${t('loadFailed')}: ${errorMessage(err)}`);
      return null;
    }
  }, [t]);

  useEffect(() => {
    // Opened at a new LAN address by the page that applied: reaching it is the proof; confirm.
    const applyId = applyIdFromQuery(window.location.search);
    if (applyId) {
      window.history.replaceState(null, '', window.location.pathname);
      confirmNetwork(applyId).then(
        () => Message.success(t('pending.confirmed')),
        (err: unknown) => setFailure(`${t('pending.confirmFailed')}: ${errorMessage(err)}`),
      ).finally(() => void reload());
    } else {
      void reload();
    }
  }, [reload, t]);

  const applied = (result: NetworkApplyResult): void => {
    setPlanned(null);
    if (result.newUrl) {
      const target = `${result.newUrl}${window.location.pathname}?confirm=${encodeURIComponent(result.applyId)}`;
      setMoving(result.newUrl);
      // A moment for the host to bring the new address up before the browser asks for it.
      setTimeout(() => window.location.assign(target), 3000);
      return;
    }
    void reload();
  };

  const expired = useCallback(() => {
    void reload().then((s) => s && !s.pending && Message.warning(t('pending.rolledBack')));
  }, [reload, t]);

  if (!state) {
    return <Card bordered={false}>{failure ? <FormError message={failure} testId="network-load-error" /> : <Spin />}</Card>;
  }
  const cutHost = planned && cutsSession(planned.changes, state.lan.ipAddress, window.location.hostname) ? state.lan.ipAddress : null;
  return (
    <Card bordered={false} className="ec-network" data-testid="network-configuration">
      <Alert type="info" className="ec-network__notice" content={`${t('applier.label')}: ${t(`applier.${state.applier}`)}`} data-testid="network-applier" />
      {moving && <Alert type="info" className="ec-network__notice" content={t('pending.moving', { url: moving })} />}
      {state.pending && (
        <PendingApplyBanner
          key={state.pending.applyId}
          pending={state.pending}
          onConfirmed={() => {
            Message.success(t('pending.confirmed'));
            void reload();
          }}
          onExpired={expired}
        />
      )}
      <FormError message={failure} testId="network-error" />
      <Tabs defaultActiveTab="lan" lazyload destroyOnHide>
        {sections.map((section) => (
          <Tabs.TabPane key={section} title={<span data-testid={`network-tab-${section}`}>{t(`tabs.${section}`)}</span>}>
            <SectionForm section={section} state={state} locked={Boolean(state.pending) || moving !== null} onPlanned={(body, changes) => setPlanned({ body, changes })} />
          </Tabs.TabPane>
        ))}
      </Tabs>
      {planned && (
        <ApplyDialog body={planned.body} changes={planned.changes} applier={state.applier} cutHost={cutHost} onApplied={applied} onClose={() => setPlanned(null)} />
      )}
    </Card>
  );
}
