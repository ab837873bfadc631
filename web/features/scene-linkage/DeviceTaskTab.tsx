/**
 * Device detail → task tab: the scheduled scenes whose actions command this device, with their next
 * run; "create" opens the scene editor with a schedule trigger and a command to this device.
 */
import { useCallback, useEffect, useMemo, useState, type JSX } from 'react';
import Button from '@arco-design/web-react/es/Button';
import Empty from '@arco-design/web-react/es/Empty';
import Message from '@arco-design/web-react/es/Message';
import Table from '@arco-design/web-react/es/Table';
import type { ColumnProps } from '@arco-design/web-react/es/Table';
import Tag from '@arco-design/web-react/es/Tag';
import IconPlus from '@arco-design/web-react/icon/react-icon/IconPlus';
import { useTranslation } from 'react-i18next';
import type { Scene } from '../../../server/contract/scene-linkage.ts';
import { formatDateTime } from '../../lib/date-format.ts';
import type { DeviceTabProps } from '../device/deviceTab.ts';
import { deviceTasks, type DeviceTask } from './deviceTasks.ts';
import { browserTimeZone } from './nextRuns.ts';
import { listAllScenes } from './sceneApi.ts';
import { SceneEditorDrawer } from './SceneEditorDrawer.tsx';
import { emptyScene, emptyTrigger, sceneValues, type EditorTarget, type SceneValues } from './sceneForm.ts';
import { useDeviceProducts } from './useDeviceProducts.ts';

export function DeviceTaskTab({ device }: DeviceTabProps): JSX.Element {
  const { t } = useTranslation(['scene', 'table']);
  const [scenes, setScenes] = useState<Scene[] | null>(null);
  const [target, setTarget] = useState<EditorTarget | null>(null);
  const productOfDevice = useDeviceProducts();

  const reload = useCallback(() => {
    void listAllScenes().then(setScenes, () => setScenes([]));
  }, []);
  useEffect(() => {
    reload();
  }, [reload]);

  const tasks = useMemo(() => deviceTasks(scenes ?? [], device.id), [scenes, device.id]);

  const createValues = (): SceneValues => {
    const zone = browserTimeZone();
    return {
      ...emptyScene(zone),
      triggers: [emptyTrigger('SCHEDULE_TRIGGER', zone)],
      actions: [{ type: 'DEVICE_OUT', deviceProfileId: device.deviceProfileId, deviceId: device.id, commandType: 'SERVICE', params: {} }],
    };
  };

  const edit = async (scene: Scene): Promise<void> => {
    const ids = scene.actions.flatMap((a) => (a.type === 'DEVICE_OUT' ? [a.deviceId] : []));
    const products = await productOfDevice(ids);
    setTarget({ scene, values: sceneValues(scene, (id) => products.get(id)) });
  };

  const columns: ColumnProps<DeviceTask>[] = [
    { title: t('name'), key: 'name', render: (_: unknown, row) => <strong>{row.scene.name}</strong> },
    {
      title: t('task.cron'),
      key: 'cron',
      render: (_: unknown, row) => row.schedules.map((s) => `${s.cron} (${s.timeZone})`).join('; '),
    },
    {
      title: t('task.nextRun'),
      key: 'nextRun',
      render: (_: unknown, row) => <span data-testid={`device-task-next-${row.scene.id}`}>{row.nextRun ? formatDateTime(row.nextRun.getTime()) : t('task.none')}</span>,
    },
    {
      title: t('enabled'),
      key: 'enabled',
      render: (_: unknown, row) => <Tag color={row.scene.enabled ? 'green' : 'gray'}>{t(row.scene.enabled ? 'enabledValue.true' : 'enabledValue.false')}</Tag>,
    },
    {
      title: t('table:actions'),
      key: 'actions',
      render: (_: unknown, row) => (
        <Button type="text" size="small" onClick={() => void edit(row.scene)} data-testid={`device-task-edit-${row.scene.id}`}>
          {t('table:edit')}
        </Button>
      ),
    },
  ];

  return (
    <div data-testid="device-task-tab">
      <div className="ec-resource__toolbar">
        <div className="ec-resource__toolbar-left" />
        <div className="ec-resource__toolbar-right">
          <Button type="primary" icon={<IconPlus />} onClick={() => setTarget({ values: createValues() })} data-testid="device-task-create">
            {t('task.create')}
          </Button>
        </div>
      </div>
      <Table<DeviceTask>
        rowKey={(row) => row.scene.id}
        columns={columns}
        data={tasks}
        loading={scenes === null}
        pagination={false}
        border={false}
        scroll={{ x: 'max-content' }}
        noDataElement={<Empty description={t('task.empty')} />}
        data-testid="device-task-table"
      />
      <SceneEditorDrawer
        visible={target !== null}
        scene={target?.scene}
        initialValues={target?.values ?? createValues()}
        scenes={scenes ?? []}
        onClose={() => setTarget(null)}
        onSaved={() => {
          Message.success(t('saved'));
          reload();
        }}
      />
    </div>
  );
}
