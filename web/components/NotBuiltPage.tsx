/**
 * What an area that this version does not have yet shows: its name and a plain statement that it
 * is not available, instead of invented content. The area is the current route's title.
 */
import type { JSX } from 'react';
import { useTranslation } from 'react-i18next';
import Button from '@arco-design/web-react/es/Button';
import IconClockCircle from '@arco-design/web-react/icon/react-icon/IconClockCircle';
import { useCurrentRoute } from '../lib/current-route.ts';
import { navigateGuarded } from '../lib/navigation.ts';
import { consolePaths } from '../../server/contract/console-paths.ts';
import { StatusPanel } from './StatusPanel.tsx';

export function NotBuiltPage(): JSX.Element {
  const { t } = useTranslation(['exception', 'menu', 'common']);
  const route = useCurrentRoute();
  const area = route ? t(route.entry.titleKey) : t('common:appTitle');
  const onWorkbench = route?.entry.path === consolePaths.workbench;
  return (
    <StatusPanel
      testId="not-built"
      icon={<IconClockCircle />}
      title={t('exception:notBuiltTitle', { area })}
      description={t('exception:notBuiltDescription', { area })}
      actions={
        onWorkbench ? null : (
          <Button type="primary" data-testid="not-built-back" onClick={() => void navigateGuarded(consolePaths.workbench)}>
            {t('exception:backHome')}
          </Button>
        )
      }
    />
  );
}
