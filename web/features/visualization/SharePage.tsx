/**
 * A shared configuration without sign-in (`/visualization/share/{token}`): the layout the link
 * opens, values asked through the link only, switches and buttons disabled. A revoked, expired or
 * unknown link shows one clear page, whatever the reason (the server does not tell them apart).
 */
import { useEffect, useMemo, useState, type JSX } from 'react';
import Result from '@arco-design/web-react/es/Result';
import Spin from '@arco-design/web-react/es/Spin';
import { useTranslation } from 'react-i18next';
import { useParams } from 'wouter';
import type { SharedVisualization } from '../../../server/contract/visualization.ts';
import { ConfigurationRunner } from './ConfigurationRunner.tsx';
import { getShared } from './visualizationApi.ts';
import './visualization.css';

export function SharePage(): JSX.Element {
  const { t } = useTranslation('visualization');
  const { shareToken } = useParams<{ shareToken: string }>();
  const [shared, setShared] = useState<SharedVisualization | null>(null);
  const [gone, setGone] = useState(false);
  const source = useMemo(() => ({ kind: 'share' as const, shareToken }), [shareToken]);

  useEffect(() => {
    getShared(shareToken).then(setShared, () => setGone(true));
  }, [shareToken]);

  if (gone) {
    return (
      <div className="ec-vis__screen" data-testid="vis-share-gone">
        <Result status="404" title={t('shareGone.title')} subTitle={t('shareGone.text')} />
      </div>
    );
  }
  if (!shared) return <Spin block style={{ marginTop: 120 }} />;
  return (
    <div className={`ec-vis__screen ec-vis--${shared.platform}`} data-testid="vis-share">
      <div className="ec-vis__screen-bar">
        <h1>{shared.name}</h1>
      </div>
      <ConfigurationRunner layout={shared.layout} source={source} onGone={() => setGone(true)} />
    </div>
  );
}
