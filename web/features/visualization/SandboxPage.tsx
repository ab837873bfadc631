/** Visualization → Sandbox: pick a configuration to run full screen with live values. */
import { useCallback, type JSX } from 'react';
import Button from '@arco-design/web-react/es/Button';
import Card from '@arco-design/web-react/es/Card';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'wouter';
import { consolePath, consolePaths } from '../../../server/contract/console-paths.ts';
import type { VisualizationSummary } from '../../../server/contract/visualization.ts';
import { ConfigurationTable, useConfigurationList } from './ConfigurationTable.tsx';
import './visualization.css';

export function SandboxPage(): JSX.Element {
  const { t } = useTranslation('visualization');
  const [, navigate] = useLocation();
  const list = useConfigurationList(false);
  const actions = useCallback(
    (row: VisualizationSummary) => (
      <Button type="primary" size="small" onClick={() => navigate(consolePath(consolePaths.visualizationRun, { id: row.id }))} data-testid={`vis-sandbox-run-${row.id}`}>
        {t('run')}
      </Button>
    ),
    [t, navigate],
  );
  return (
    <Card title={t('sandbox')} bordered={false} data-testid="vis-sandbox-page">
      <p className="ec-vis__muted">{t('sandboxHint')}</p>
      <ConfigurationTable testId="vis-sandbox" list={list} actions={actions} emptyText={t('empty')} />
    </Card>
  );
}
