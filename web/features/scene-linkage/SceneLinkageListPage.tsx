/**
 * Rule engine → Scene linkage: the scenes (name, enabled switch, trigger summary, created time;
 * filtered by name and status; paged), the editor drawer, a confirmed delete, "Run" for scenes with
 * a HAND_ACT trigger, and each scene's execution log.
 */
import { useCallback, useEffect, useMemo, useState, type JSX } from 'react';
import Button from '@arco-design/web-react/es/Button';
import Card from '@arco-design/web-react/es/Card';
import Form from '@arco-design/web-react/es/Form';
import Input from '@arco-design/web-react/es/Input';
import Message from '@arco-design/web-react/es/Message';
import Select from '@arco-design/web-react/es/Select';
import Switch from '@arco-design/web-react/es/Switch';
import type { ColumnProps } from '@arco-design/web-react/es/Table';
import IconPlus from '@arco-design/web-react/icon/react-icon/IconPlus';
import { useTranslation } from 'react-i18next';
import { sceneLinkageRoutes, type Scene } from '../../../server/contract/scene-linkage.ts';
import { ConfirmButton } from '../../components/ConfirmButton.tsx';
import { ResourceTable } from '../../components/ResourceTable.tsx';
import { formatDateTime } from '../../lib/date-format.ts';
import { useList } from '../../lib/use-list.ts';
import { browserTimeZone } from './nextRuns.ts';
import { deleteScenes, executeScene, listAllScenes, setSceneEnabled } from './sceneApi.ts';
import { SceneEditorDrawer } from './SceneEditorDrawer.tsx';
import { emptyScene, sceneValues, type EditorTarget } from './sceneForm.ts';
import { SceneLogDrawer } from './SceneLogDrawer.tsx';
import { scenesTriggerSummary } from './triggerSummary.ts';
import { useSceneText } from './useSceneText.ts';
import { useDeviceProducts } from './useDeviceProducts.ts';

export function SceneLinkageListPage(): JSX.Element {
  const { t } = useTranslation(['scene', 'table']);
  const text = useSceneText();
  const list = useList(sceneLinkageRoutes.list, { urlFilters: { name: 'string', enabled: 'boolean' } });
  const [target, setTarget] = useState<EditorTarget | null>(null);
  const [logOf, setLogOf] = useState<Scene | null>(null);
  const [all, setAll] = useState<Scene[]>([]);
  const productOfDevice = useDeviceProducts();

  const reloadAll = useCallback(() => void listAllScenes().then(setAll, () => undefined), []);
  useEffect(() => {
    reloadAll();
  }, [reloadAll]);

  const names = useCallback((id: string) => all.find((s) => s.id === id)?.name, [all]);

  const refresh = async (): Promise<void> => {
    await list.refresh();
    reloadAll();
  };

  const openEdit = async (scene: Scene): Promise<void> => {
    const deviceIds = scene.actions.flatMap((a) => (a.type === 'DEVICE_OUT' ? [a.deviceId] : []));
    const products = await productOfDevice(deviceIds);
    setTarget({ scene, values: sceneValues(scene, (id) => products.get(id)) });
  };

  const toggle = async (scene: Scene, enabled: boolean): Promise<void> => {
    await setSceneEnabled(scene.id, enabled);
    Message.success(enabled ? t('switchOn') : t('switchOff'));
    await list.refresh();
  };

  const run = async (scene: Scene): Promise<void> => {
    const entry = await executeScene(scene.id);
    if (!entry.conditionsMet) Message.warning(t('executedNoConditions'));
    else {
      const failed = entry.actions.filter((a) => a.outcome === 'FAILED').length;
      const ok = entry.actions.length - failed;
      (failed ? Message.warning : Message.success)(t('executed', { ok, failed }));
    }
  };

  const columns = useMemo<ColumnProps<Scene>[]>(
    () => [
      { title: t('name'), dataIndex: 'name', width: 200, render: (name: string) => <strong>{name}</strong> },
      {
        title: t('enabled'),
        dataIndex: 'enabled',
        width: 100,
        render: (enabled: boolean, row) => (
          <Switch
            size="small"
            checked={enabled}
            aria-label={`${t('enabled')} ${row.name}`}
            onChange={(next) => void toggle(row, next).catch(() => undefined)}
            data-testid={`scene-enabled-${row.id}`}
          />
        ),
      },
      {
        title: t('triggerSummary'),
        key: 'triggers',
        width: 360,
        render: (_: unknown, row) => (
          <span className="ec-scene-summary" data-testid={`scene-summary-${row.id}`}>
            {scenesTriggerSummary(row.triggers, text, names)}
          </span>
        ),
      },
      { title: t('createdTime'), dataIndex: 'createdTime', width: 180, render: (v: number) => formatDateTime(v) },
      {
        title: t('table:actions'),
        key: 'actions',
        width: 260,
        fixed: 'right',
        render: (_: unknown, row) => (
          <span style={{ display: 'inline-flex', gap: 4 }}>
            <Button type="text" size="small" onClick={() => void openEdit(row)} data-testid={`scene-edit-${row.id}`}>
              {t('table:edit')}
            </Button>
            {row.triggers.some((tr) => tr.type === 'HAND_ACT') ? (
              <ConfirmButton
                title={t('executeConfirm', { name: row.name })}
                okText={t('execute')}
                danger={false}
                onConfirm={() => run(row)}
                testId={`scene-execute-${row.id}`}
              >
                {t('execute')}
              </ConfirmButton>
            ) : null}
            <Button type="text" size="small" onClick={() => setLogOf(row)} data-testid={`scene-log-${row.id}`}>
              {t('log')}
            </Button>
            <ConfirmButton
              title={t('deleteConfirm', { name: row.name })}
              onConfirm={async () => {
                await deleteScenes([row.id]);
                Message.success(t('deleted'));
                await refresh();
              }}
              testId={`scene-delete-${row.id}`}
            >
              {t('table:delete')}
            </ConfirmButton>
          </span>
        ),
      },
    ],
    // oxlint-disable-next-line react-hooks/exhaustive-deps -- the handlers only call list.refresh and open drawers.
    [t, names, list.refresh],
  );

  return (
    <Card title={t('title')} bordered={false} data-testid="scene-page">
      <ResourceTable<Scene, typeof list.filters>
        testId="scene"
        list={list}
        rowKey="id"
        columns={columns}
        scrollX={1100}
        emptyText={t('empty')}
        onBulkDelete={async (ids) => {
          await deleteScenes(ids);
          reloadAll();
        }}
        filters={
          <>
            <Form.Item field="name" label={t('name')}>
              <Input allowClear placeholder={t('namePlaceholder')} data-testid="scene-filter-name" style={{ width: 200 }} />
            </Form.Item>
            <Form.Item field="enabled" label={t('enabledFilter')}>
              <Select allowClear placeholder={t('enabledFilter')} style={{ width: 140 }} data-testid="scene-filter-enabled" getPopupContainer={() => document.body}>
                <Select.Option value={true as unknown as string}>{t('enabledValue.true')}</Select.Option>
                <Select.Option value={false as unknown as string}>{t('enabledValue.false')}</Select.Option>
              </Select>
            </Form.Item>
          </>
        }
        toolbar={
          <Button type="primary" icon={<IconPlus />} onClick={() => setTarget({ values: emptyScene(browserTimeZone()) })} data-testid="scene-create">
            {t('create')}
          </Button>
        }
      />
      <SceneEditorDrawer
        visible={target !== null}
        scene={target?.scene}
        initialValues={target?.values ?? emptyScene(browserTimeZone())}
        scenes={all}
        onClose={() => setTarget(null)}
        onSaved={() => {
          Message.success(t('saved'));
          void refresh();
        }}
      />
      <SceneLogDrawer scene={logOf} onClose={() => setLogOf(null)} />
    </Card>
  );
}
