/** The `scene` namespace's translator as the pure summary helpers take it (keys built at run time). */
import { useTranslation } from 'react-i18next';
import type { SceneText } from './triggerSummary.ts';

export function useSceneText(): SceneText {
  const { t } = useTranslation('scene');
  // The summary helpers build keys from enum values; they are all in locales/*/scene.json.
  return (key, params) => (t as unknown as (k: string, p?: Record<string, unknown>) => string)(key, params);
}
