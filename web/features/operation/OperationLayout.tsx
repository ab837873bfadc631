/**
 * Operation management's own shell (the route table's `layout: 'operation'`), opened in a new tab
 * from the user popover: the live brand, the area's title, the header's actions and a side list of
 * the operation pages the user may open, with a way back to the console. It loads the session like
 * the main layout, so a tab opened straight on an operation page has the user and branding.
 */
import { useMemo, useState, type JSX, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import Layout from '@arco-design/web-react/es/Layout';
import IconLeft from '@arco-design/web-react/icon/react-icon/IconLeft';
import { consolePaths } from '../../../server/contract/console-paths.ts';
import { namespaces } from '../../i18n/namespaces.ts';
import { Brand } from '../../layout/Brand.tsx';
import { HeaderActions } from '../../layout/HeaderActions.tsx';
import { MustChangePassword } from '../../layout/MustChangePassword.tsx';
import { SettingsDrawer } from '../../layout/SettingsDrawer.tsx';
import { useSessionInfo } from '../../layout/useSessionInfo.ts';
import { useCurrentRoute } from '../../lib/current-route.ts';
import { navigateGuarded } from '../../lib/navigation.ts';
import { canAccess } from '../../lib/route-model.ts';
import { useConsoleRoutes } from '../../stores/menu-routes.ts';
import { useMustChangePassword, useMyPermissions } from '../../stores/permissions.ts';
import '../../layout/layout.css';
import './operation.css';

function NavLink({ path, active, children }: { path: string; active: boolean; children: ReactNode }): JSX.Element {
  return (
    <a
      href={path}
      className={active ? 'ec-op-nav__link ec-op-nav__link--active' : 'ec-op-nav__link'}
      aria-current={active ? 'page' : undefined}
      data-testid={`op-nav-${path.split('/').pop() ?? ''}`}
      onClick={(e) => {
        e.preventDefault();
        void navigateGuarded(path);
      }}
    >
      {children}
    </a>
  );
}

export function OperationLayout({ children }: { children: ReactNode }): JSX.Element {
  // Every namespace once, as the main layout does (i18n/namespaces.ts says why).
  const { t } = useTranslation([...namespaces]);
  useSessionInfo();
  const current = useCurrentRoute();
  const routes = useConsoleRoutes();
  const mine = useMyPermissions();
  const [drawer, setDrawer] = useState(false);
  const mustChangePassword = useMustChangePassword();
  const pages = useMemo(
    () => (routes ?? []).filter((r) => r.layout === 'operation' && canAccess(r, mine ?? [])).sort((a, b) => a.sort - b.sort),
    [routes, mine],
  );

  // The server refuses everything else until the password is changed, as in the main layout.
  if (mustChangePassword) return <MustChangePassword />;

  return (
    <Layout className="main-layout ec-op-layout" data-testid="operation-layout">
      <Layout.Header className="main-header ec-op-header">
        <Brand />
        <h1 className="ec-op-header__title">{t('operation:title')}</h1>
        <div className="header-spacer" />
        <HeaderActions onOpenSettings={() => setDrawer(true)} />
      </Layout.Header>
      <Layout className="ec-op-body">
        <nav className="ec-op-nav" aria-label={t('operation:nav')}>
          {pages.map((r) => (
            <NavLink key={r.path} path={r.path} active={current?.entry.path === r.path}>
              {t(r.titleKey)}
            </NavLink>
          ))}
          <NavLink path={consolePaths.workbench} active={false}>
            <IconLeft aria-hidden /> {t('operation:backToConsole')}
          </NavLink>
        </nav>
        <Layout.Content className="ec-op-content" id="main-content">
          {children}
        </Layout.Content>
      </Layout>
      <SettingsDrawer visible={drawer} onClose={() => setDrawer(false)} />
    </Layout>
  );
}
