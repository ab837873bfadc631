/**
 * Visualization → Sandbox: where configurations are made and tried. Every configuration that is
 * not a template, with design, run (full screen, live), share, save-as-template and delete;
 * "create" starts a blank one. (The spec's menu has no other configuration page: the category
 * path opens its first child, the templates.)
 */
import { useCallback, useState, type JSX } from 'react';
import Button from '@arco-design/web-react/es/Button';
import Card from '@arco-design/web-react/es/Card';
import IconPlus from '@arco-design/web-react/icon/react-icon/IconPlus';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'wouter';
import { consolePath, consolePaths } from '../../../server/contract/console-paths.ts';
import type { VisualizationSummary } from '../../../server/contract/visualization.ts';
import { ConfirmButton } from '../../components/ConfirmButton.tsx';
import { Message } from '../../lib/message.ts';
import { ConfigurationTable, useConfigurationList } from './ConfigurationTable.tsx';
import { CreateModal, type CreateRequest } from './CreateModal.tsx';
import { ShareModal } from './ShareModal.tsx';
import { deleteVisualizations, getVisualization } from './visualizationApi.ts';
import './visualization.css';

export function SandboxPage(): JSX.Element {
  const { t } = useTranslation(['visualization', 'table']);
  const [, navigate] = useLocation();
  const list = useConfigurationList(false);
  const [creating, setCreating] = useState<CreateRequest | null>(null);
  const [sharing, setSharing] = useState<VisualizationSummary | null>(null);
  const { refresh } = list;

  const actions = useCallback(
    (row: VisualizationSummary) => (
      <>
        <Button type="text" size="small" onClick={() => navigate(consolePath(consolePaths.visualizationDesigner, { id: row.id }))} data-testid={`vis-design-${row.id}`}>
          {t('design')}
        </Button>
        <Button type="text" size="small" onClick={() => navigate(consolePath(consolePaths.visualizationRun, { id: row.id }))} data-testid={`vis-run-${row.id}`}>
          {t('run')}
        </Button>
        <Button type="text" size="small" onClick={() => setSharing(row)} data-testid={`vis-share-${row.id}`}>
          {t('share.action')}
        </Button>
        <Button
          type="text"
          size="small"
          onClick={() => void getVisualization(row.id).then((v) => setCreating({ name: v.name, platform: v.platform, layout: v.layout, template: true }))}
          data-testid={`vis-as-template-${row.id}`}
        >
          {t('saveAsTemplate')}
        </Button>
        <ConfirmButton title={t('deleteConfirm', { name: row.name })} onConfirm={() => deleteVisualizations([row.id]).then(refresh)} testId={`vis-delete-${row.id}`}>
          {t('table:delete')}
        </ConfirmButton>
      </>
    ),
    [t, navigate, refresh],
  );

  return (
    <Card title={t('sandbox')} bordered={false} data-testid="vis-sandbox-page">
      <p className="ec-vis__muted">{t('sandboxHint')}</p>
      <ConfigurationTable
        testId="vis"
        list={list}
        actions={actions}
        emptyText={t('empty')}
        toolbar={
          <Button type="primary" icon={<IconPlus />} onClick={() => setCreating({ name: '', platform: 'pc', layout: { widgets: [] }, template: false })} data-testid="vis-create">
            {t('create')}
          </Button>
        }
      />
      <CreateModal
        request={creating}
        onClose={() => setCreating(null)}
        onCreated={(v) => {
          setCreating(null);
          if (v.template) {
            Message.success(t('templateSaved'));
            return;
          }
          navigate(consolePath(consolePaths.visualizationDesigner, { id: v.id }));
        }}
      />
      <ShareModal config={sharing} onClose={() => setSharing(null)} onChanged={() => void refresh()} />
    </Card>
  );
}
