/** The sandbox: one configuration full screen with live values (signed in); Esc or the corner button leaves. */
import { useEffect, useMemo, useState, type JSX } from 'react';
import Button from '@arco-design/web-react/es/Button';
import Spin from '@arco-design/web-react/es/Spin';
import { useTranslation } from 'react-i18next';
import { useLocation, useParams } from 'wouter';
import { consolePaths } from '../../../server/contract/console-paths.ts';
import type { Visualization } from '../../../server/contract/visualization.ts';
import { ConfigurationRunner } from './ConfigurationRunner.tsx';
import { getVisualization } from './visualizationApi.ts';
import './visualization.css';

export function SandboxRunPage(): JSX.Element {
  const { t } = useTranslation('visualization');
  const { id } = useParams<{ id: string }>();
  const [, navigate] = useLocation();
  const [config, setConfig] = useState<Visualization | null>(null);
  const source = useMemo(() => ({ kind: 'live' as const }), []);

  useEffect(() => {
    void getVisualization(id).then(setConfig);
  }, [id]);
  useEffect(() => {
    const onKey = (e: KeyboardEvent): void => {
      if (e.key === 'Escape') navigate(consolePaths.visualizationSandbox);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [navigate]);

  if (!config) return <Spin block style={{ marginTop: 120 }} />;
  return (
    <div className={`ec-vis__screen ec-vis--${config.platform}`} data-testid="vis-sandbox">
      <div className="ec-vis__screen-bar">
        <h1>{config.name}</h1>
        <Button size="small" onClick={() => navigate(consolePaths.visualizationSandbox)} data-testid="vis-sandbox-exit">
          {t('exit')}
        </Button>
      </div>
      <ConfigurationRunner layout={config.layout} source={source} />
    </div>
  );
}
