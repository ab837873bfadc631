/** Platform logo (the uploaded one, else the default logo) and name, linking to the workbench. */
import type { JSX } from 'react';
import { useTranslation } from 'react-i18next';
import { DefaultLogo } from '../components/DefaultLogo.tsx';
import { navigateGuarded } from '../lib/navigation.ts';
import { consolePaths } from '../../server/contract/console-paths.ts';
import { useSession } from '../stores/session.ts';

export function Brand({ collapsed = false }: { collapsed?: boolean }): JSX.Element {
  const { t } = useTranslation(['layout', 'common']);
  const platform = useSession((s) => s.platform);
  const name = platform?.name || t('common:appTitle');
  return (
    <a
      className={collapsed ? 'brand brand--collapsed' : 'brand'}
      href={consolePaths.workbench}
      data-testid="brand"
      title={name}
      onClick={(e) => {
        e.preventDefault();
        void navigateGuarded(consolePaths.workbench);
      }}
    >
      {platform?.logo ? <img className="brand__logo" src={platform.logo} alt="" /> : <DefaultLogo size={32} />}
      {collapsed ? null : <span className="brand__name">{name}</span>}
    </a>
  );
}
