/** The columns of the scene list: name, enabled switch, trigger summary, created time, row actions (edit, run, log, delete). */
import { useMemo } from 'react';
import Message from '@arco-design/web-react/es/Message';
import Switch from '@arco-design/web-react/es/Switch';
import type { ColumnProps } from '@arco-design/web-react/es/Table';
import { useTranslation } from 'react-i18next';
import type { Scene } from '../../../server/contract/scene-linkage.ts';
import { formatDateTime } from '../../lib/date-format.ts';
import { deleteScenes, executeScene, setSceneEnabled } from './sceneApi.ts';
import { SceneRowActions } from './SceneRowActions.tsx';
import { scenesTriggerSummary } from './triggerSummary.ts';
import { useSceneText } from './useSceneText.ts';

export function useSceneColumns(opts: {
  /** The list's reload, after a switch. */
  listRefresh: () => Promise<void>;
  /** After a row's delete: the page reloads the list and the scene names. */
  onDeleted: () => Promise<void>;
  /** A scene's name by id, for triggers that name another scene. */
  names: (id: string) => string | undefined;
  onEdit: (scene: Scene) => void;
  onLog: (scene: Scene) => void;
}): ColumnProps<Scene>[] {
  const { listRefresh, onDeleted, names, onEdit, onLog } = opts;
  const { t } = useTranslation(['scene', 'table']);
  const text = useSceneText();

  const toggle = async (scene: Scene, enabled: boolean): Promise<void> => {
    await setSceneEnabled(scene.id, enabled);
    Message.success(enabled ? t('switchOn') : t('switchOff'));
    await listRefresh();
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

  const remove = async (scene: Scene): Promise<void> => {
    await deleteScenes([scene.id]);
    Message.success(t('deleted'));
    await onDeleted();
  };

  return useMemo<ColumnProps<Scene>[]>(
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
        render: (_: unknown, row) => <SceneRowActions scene={row} onEdit={onEdit} onRun={run} onLog={onLog} onDelete={remove} />,
      },
    ],
    // oxlint-disable-next-line react-hooks/exhaustive-deps -- the handlers only call list.refresh and open drawers.
    [t, names, listRefresh],
  );
}
