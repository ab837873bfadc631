/**
 * Rule engine → Scene linkage: the scenes (name, enabled switch, trigger summary, created time;
 * filtered by name and status; paged), the editor drawer, a confirmed delete, "Run" for scenes with
 * a HAND_ACT trigger, and each scene's execution log.
 */
import { useCallback, useEffect, useState, type JSX } from 'react';
import Button from '@arco-design/web-react/es/Button';
import Card from '@arco-design/web-react/es/Card';
import Message from '@arco-design/web-react/es/Message';
import IconPlus from '@arco-design/web-react/icon/react-icon/IconPlus';
import { useTranslation } from 'react-i18next';
import { sceneLinkageRoutes, type Scene } from '../../../server/contract/scene-linkage.ts';
import { ResourceTable } from '../../components/ResourceTable.tsx';
import { useList } from '../../lib/use-list.ts';
import { browserTimeZone } from './nextRuns.ts';
import { deleteScenes, listAllScenes } from './sceneApi.ts';
import { SceneEditorDrawer } from './SceneEditorDrawer.tsx';
import { emptyScene, sceneValues, type EditorTarget } from './sceneForm.ts';
import { SceneLogDrawer } from './SceneLogDrawer.tsx';
import { SceneFilters } from './SceneFilters.tsx';
import { useSceneColumns } from './useSceneColumns.tsx';
import { useDeviceProducts } from './useDeviceProducts.ts';

export function SceneLinkageListPage(): JSX.Element {
  const { t } = useTranslation(['scene', 'table']);
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

  const columns = useSceneColumns({
    listRefresh: list.refresh,
    onDeleted: refresh,
    names,
    onEdit: (scene) => void openEdit(scene),
    onLog: setLogOf,
  });

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
        filters={<SceneFilters />}
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
