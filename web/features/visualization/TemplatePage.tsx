/**
 * Visualization → Templates: the built-in templates (device overview, alarm wall) and every
 * configuration saved as a template; "use" creates a configuration from one and opens the designer.
 */
import { useCallback, useState, type JSX } from 'react';
import Button from '@arco-design/web-react/es/Button';
import Card from '@arco-design/web-react/es/Card';
import Tag from '@arco-design/web-react/es/Tag';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'wouter';
import { consolePath, consolePaths } from '../../../server/contract/console-paths.ts';
import type { VisualizationSummary } from '../../../server/contract/visualization.ts';
import { ConfirmButton } from '../../components/ConfirmButton.tsx';
import { builtInTemplates } from './builtInTemplates.ts';
import { ConfigurationTable, useConfigurationList } from './ConfigurationTable.tsx';
import { CreateModal, type CreateRequest } from './CreateModal.tsx';
import { renderThumbnail } from './thumbnail.ts';
import { deleteVisualizations, getVisualization } from './visualizationApi.ts';
import './visualization.css';

export function TemplatePage(): JSX.Element {
  const { t } = useTranslation(['visualization', 'table']);
  const [, navigate] = useLocation();
  const list = useConfigurationList(true);
  const [creating, setCreating] = useState<CreateRequest | null>(null);
  const { refresh } = list;

  const actions = useCallback(
    (row: VisualizationSummary) => (
      <>
        <Button type="text" size="small" onClick={() => void getVisualization(row.id).then((v) => setCreating({ name: v.name, platform: v.platform, layout: v.layout, template: false }))} data-testid={`vis-use-${row.id}`}>
          {t('useTemplate')}
        </Button>
        <ConfirmButton title={t('deleteConfirm', { name: row.name })} onConfirm={() => deleteVisualizations([row.id]).then(refresh)} testId={`vis-template-delete-${row.id}`}>
          {t('table:delete')}
        </ConfirmButton>
      </>
    ),
    [t, refresh],
  );

  return (
    <Card title={t('templates')} bordered={false} data-testid="vis-template-page">
      <div className="ec-vis__builtins">
        {builtInTemplates.map((b) => (
          <Card key={b.id} size="small" className="ec-vis__builtin" data-testid={`vis-builtin-${b.id}`}>
            <img className="ec-vis__thumb" src={renderThumbnail(b.layout)} alt="" />
            <div className="ec-vis__builtin-name">
              <strong>{t(b.nameKey)}</strong> <Tag size="small">{t('builtIn.tag')}</Tag>
            </div>
            <Button size="small" type="primary" onClick={() => setCreating({ name: t(b.nameKey), platform: b.platform, layout: b.layout, template: false })} data-testid={`vis-use-${b.id}`}>
              {t('useTemplate')}
            </Button>
          </Card>
        ))}
      </div>
      <ConfigurationTable testId="vis-template" list={list} actions={actions} emptyText={t('templatesEmpty')} />
      <CreateModal
        request={creating}
        onClose={() => setCreating(null)}
        onCreated={(v) => {
          setCreating(null);
          navigate(consolePath(consolePaths.visualizationDesigner, { id: v.id }));
        }}
      />
    </Card>
  );
}
