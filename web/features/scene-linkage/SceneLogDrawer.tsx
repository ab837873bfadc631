/** A scene's execution log: when, which trigger, the device and value that fired it, each action's outcome. */
import { useMemo, type JSX } from 'react';
import Drawer from '@arco-design/web-react/es/Drawer';
import Tag from '@arco-design/web-react/es/Tag';
import type { ColumnProps } from '@arco-design/web-react/es/Table';
import { useTranslation } from 'react-i18next';
import { sceneLinkageRoutes, type Scene, type SceneLogEntry } from '../../../server/contract/scene-linkage.ts';
import { EnumTag } from '../../components/EnumTag.tsx';
import { ResourceTable } from '../../components/ResourceTable.tsx';
import { formatDateTime } from '../../lib/date-format.ts';
import { errorKeyText } from '../../lib/error-text.ts';
import { useList } from '../../lib/use-list.ts';
import { triggerSummary } from './triggerSummary.ts';
import { useSceneText } from './useSceneText.ts';

const outcomeColors: Record<string, string> = { SUCCESS: 'green', FAILED: 'red' };

export function SceneLogDrawer({ scene, onClose }: { scene: Scene | null; onClose: () => void }): JSX.Element {
  const { t } = useTranslation('scene');
  return (
    <Drawer width="50%" visible={scene !== null} title={scene ? `${t('log')} · ${scene.name}` : t('log')} onCancel={onClose} footer={null} unmountOnExit data-testid="scene-log-drawer">
      {scene ? <SceneLogTable scene={scene} /> : null}
    </Drawer>
  );
}

function SceneLogTable({ scene }: { scene: Scene }): JSX.Element {
  const { t } = useTranslation('scene');
  const text = useSceneText();
  const list = useList(sceneLinkageRoutes.log, { params: { id: scene.id }, syncUrl: false });
  const columns = useMemo<ColumnProps<SceneLogEntry>[]>(
    () => [
      { title: t('logTable.ts'), dataIndex: 'ts', width: 170, render: (v: number) => formatDateTime(v) },
      {
        title: t('logTable.trigger'),
        key: 'trigger',
        width: 200,
        render: (_: unknown, row) => {
          const trigger = row.triggerIndex === null ? undefined : scene.triggers[row.triggerIndex];
          return trigger ? triggerSummary(trigger, text) : t('logTable.manual');
        },
      },
      {
        title: t('logTable.value'),
        key: 'value',
        width: 100,
        render: (_: unknown, row) => (row.value === null || row.value === undefined ? '—' : String(row.value)),
      },
      {
        title: t('logTable.conditions'),
        dataIndex: 'conditionsMet',
        width: 100,
        render: (met: boolean) => <Tag color={met ? 'green' : 'gray'}>{met ? t('logTable.conditionsMet') : t('logTable.conditionsNotMet')}</Tag>,
      },
      {
        title: t('logTable.actions'),
        key: 'actions',
        render: (_: unknown, row) => (
          <ul className="ec-scene-log-actions">
            {row.actions.map((a) => (
              <li key={a.index}>
                {`${a.index + 1}. ${t(`executionAction.${a.type}`)} `}
                <EnumTag ns="scene" group="outcome" value={a.outcome} colors={outcomeColors} />
                {a.error ? <span className="ec-scene-log-error">{` ${a.error.startsWith('error.') ? errorKeyText(a.error) : a.error}`}</span> : null}
              </li>
            ))}
          </ul>
        ),
      },
    ],
    [t, text, scene],
  );
  return <ResourceTable<SceneLogEntry, typeof list.filters> testId="scene-log" list={list} rowKey="id" columns={columns} emptyText={t('logTable.empty')} />;
}
