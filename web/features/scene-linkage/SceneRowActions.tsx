/** A scene row's actions: edit, run (scenes with a manual trigger, confirmed), execution log, delete (confirmed). */
import type { JSX } from 'react';
import Button from '@arco-design/web-react/es/Button';
import { useTranslation } from 'react-i18next';
import type { Scene } from '../../../server/contract/scene-linkage.ts';
import { ConfirmButton } from '../../components/ConfirmButton.tsx';

export interface SceneRowActionsProps {
  scene: Scene;
  onEdit: (scene: Scene) => void;
  onRun: (scene: Scene) => Promise<void>;
  onLog: (scene: Scene) => void;
  onDelete: (scene: Scene) => Promise<void>;
}

export function SceneRowActions(props: SceneRowActionsProps): JSX.Element {
  const { scene, onEdit, onRun, onLog, onDelete } = props;
  const { t } = useTranslation(['scene', 'table']);
  return (
    <span style={{ display: 'inline-flex', gap: 4 }}>
      <Button type="text" size="small" onClick={() => onEdit(scene)} data-testid={`scene-edit-${scene.id}`}>
        {t('table:edit')}
      </Button>
      {scene.triggers.some((tr) => tr.type === 'HAND_ACT') ? (
        <ConfirmButton
          title={t('executeConfirm', { name: scene.name })}
          okText={t('execute')}
          danger={false}
          onConfirm={() => onRun(scene)}
          testId={`scene-execute-${scene.id}`}
        >
          {t('execute')}
        </ConfirmButton>
      ) : null}
      <Button type="text" size="small" onClick={() => onLog(scene)} data-testid={`scene-log-${scene.id}`}>
        {t('log')}
      </Button>
      <ConfirmButton
        title={t('deleteConfirm', { name: scene.name })}
        onConfirm={() => onDelete(scene)}
        testId={`scene-delete-${scene.id}`}
      >
        {t('table:delete')}
      </ConfirmButton>
    </span>
  );
}
