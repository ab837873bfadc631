/**
 * The signed-in shell: brand, menu, header and content, in three navigation modes:
 * - sidebar: brand and the whole menu on the left, header beside it;
 * - top: brand and the whole menu (sub-menus as pop-ups) in the header;
 * - mix: brand and the top-level groups in the header, the selected group's entries on the left.
 * Below 768 px (web/lib/use-narrow.ts) every mode gives way to a header with a menu button and the
 * whole menu in a drawer (web/layout/MenuDrawer.tsx); the breadcrumb moves above the content.
 * On entry it loads the user and platform info and the user's saved settings once, with a loading message.
 */
import { Suspense, useEffect, useMemo, useState, type JSX, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { namespaces } from '../i18n/namespaces.ts';
import Button from '@arco-design/web-react/es/Button';
import Layout from '@arco-design/web-react/es/Layout';
import Message from '@arco-design/web-react/es/Message';
import Spin from '@arco-design/web-react/es/Spin';
import IconMenuFold from '@arco-design/web-react/icon/react-icon/IconMenuFold';
import IconMenuUnfold from '@arco-design/web-react/icon/react-icon/IconMenuUnfold';
import { loadPlatform, loadUser } from '../features/auth/sessionApi.ts';
import { useCurrentRoute } from '../lib/current-route.ts';
import { activeMenuKey, buildMenu, openMenuKeys, topLevelOf, type MenuNode } from '../lib/route-model.ts';
import type { AppRoute } from '../app-route.ts';
import { useMustChangePassword, useMyPermissions } from '../stores/permissions.ts';
import { useRoutesInForce } from '../stores/menu-routes.ts';
import type { Language } from '../../server/contract/languages.ts';
import { useSession } from '../stores/session.ts';
import { updateSettings, useSettings } from '../stores/settings.ts';
import { syncServerSettings } from '../stores/settings-server.ts';
import { AppBreadcrumb } from './AppBreadcrumb.tsx';
import { AppMenu } from './AppMenu.tsx';
import { Brand } from './Brand.tsx';
import { AlarmPopup } from '../features/alarm/AlarmPopup.tsx';
import { HeaderActions } from './HeaderActions.tsx';
import { MenuDrawer } from './MenuDrawer.tsx';
import { SettingsDrawer } from './SettingsDrawer.tsx';
import { MustChangePassword } from './MustChangePassword.tsx';
import { useNarrow } from '../lib/use-narrow.ts';
import './layout.css';

/** English group names ("Visualization configuration") need more room than Chinese ones. */
const SIDER_WIDTH: Record<Language, number> = { zh_CN: 220, en_US: 256 };
const SIDER_COLLAPSED_WIDTH = 48;

/**
 * Whether this session's user and platform info were loaded: navigating between pages or a token
 * refresh does not reload them; signing out (the token goes away) starts a new session.
 */
let loaded = false;
useSession.subscribe((state) => {
  if (!state.token) loaded = false;
});

function useSessionInfo(): void {
  const { t } = useTranslation(['layout', 'common']);
  const hasToken = useSession((s) => Boolean(s.token));
  useEffect(() => {
    if (!hasToken || loaded) return;
    loaded = true;
    const close = Message.loading({ id: 'session-loading', content: t('layout:loadingSession'), duration: 0 });
    const userThenSettings = loadUser().then(async (user) => {
      await syncServerSettings(user.userId).catch(() => undefined);
      return user;
    });
    void Promise.allSettled([userThenSettings, loadPlatform()]).then(([user]) => {
      if (user.status === 'rejected') loaded = false;
      close();
    });
    // oxlint-disable-next-line react-hooks/exhaustive-deps -- only a new session warrants another load; a language change (new `t`) does not.
  }, [hasToken]);
}

function PageFallback(): JSX.Element {
  return (
    <div className="page-fallback">
      <Spin />
    </div>
  );
}

export function MainLayout({ children }: { children: ReactNode }): JSX.Element {
  // Every namespace once, before any console page mounts (see i18n/namespaces.ts for why); the
  // login page never loads them.
  const { t } = useTranslation([...namespaces]);
  useSessionInfo();
  const current = useCurrentRoute();
  const entry: AppRoute | undefined = current?.entry;
  const narrow = useNarrow();
  const chosenNavMode = useSettings((s) => s.navMode);
  // On a phone the header has room for a menu button only: the layout is "top" without its menu.
  const navMode = narrow ? 'top' : chosenNavMode;
  const pageWidth = useSettings((s) => s.pageWidth);
  const showBreadcrumb = useSettings((s) => s.showBreadcrumb);
  const collapsed = useSettings((s) => s.menuCollapsed);
  const language = useSettings((s) => s.language);
  const [drawer, setDrawer] = useState(false);

  const routes = useRoutesInForce();
  const permissions = useMyPermissions();
  const mustChangePassword = useMustChangePassword();
  const menu = useMemo(() => buildMenu(routes, permissions ?? []), [routes, permissions]);
  const selectedKey = entry ? activeMenuKey(entry) : undefined;
  const openKeys = entry ? openMenuKeys(routes, entry) : [];
  const top = entry ? topLevelOf(routes, entry) : undefined;
  const mixChildren: MenuNode<AppRoute>[] = menu.find((n) => n.key === top?.path)?.children ?? [];

  const sideNodes = navMode === 'sidebar' ? menu : navMode === 'mix' ? mixChildren : [];
  const hasSider = sideNodes.length > 0;
  const toggle = hasSider ? (
    <Button
      type="text"
      className="header-collapse"
      icon={collapsed ? <IconMenuUnfold /> : <IconMenuFold />}
      aria-label={collapsed ? t('layout:expand') : t('layout:collapse')}
      aria-expanded={!collapsed}
      data-testid="menu-collapse"
      onClick={() => updateSettings({ menuCollapsed: !collapsed })}
    />
  ) : null;
  const breadcrumb = showBreadcrumb && entry && !entry.hideBreadcrumb ? <AppBreadcrumb entry={entry} /> : null;

  const header = (
    <Layout.Header className={`main-header main-header--${navMode}${narrow ? ' main-header--narrow' : ''}`}>
      {narrow ? <MenuDrawer menu={menu} selectedKey={selectedKey} openKeys={openKeys} /> : null}
      {navMode === 'sidebar' ? null : <Brand />}
      {toggle}
      {navMode === 'sidebar' ? breadcrumb : null}
      {navMode === 'top' && !narrow ? (
        <AppMenu className="header-menu" nodes={menu} mode="horizontal" selectedKey={selectedKey} />
      ) : null}
      {navMode === 'mix' ? (
        <AppMenu className="header-menu" nodes={menu} mode="horizontal" selectedKey={top?.path} flat />
      ) : null}
      <div className="header-spacer" />
      <HeaderActions onOpenSettings={() => setDrawer(true)} />
    </Layout.Header>
  );

  const sider = hasSider ? (
    <Layout.Sider
      className="main-sider"
      collapsed={collapsed}
      width={SIDER_WIDTH[language] ?? SIDER_WIDTH.zh_CN}
      collapsedWidth={SIDER_COLLAPSED_WIDTH}
      trigger={null}
    >
      {navMode === 'sidebar' ? <Brand collapsed={collapsed} /> : null}
      <AppMenu
        className="side-menu"
        nodes={sideNodes}
        mode="vertical"
        collapse={collapsed}
        selectedKey={selectedKey}
        openKeys={openKeys}
      />
    </Layout.Sider>
  ) : null;

  const content = (
    <Layout.Content className="main-content">
      {navMode === 'sidebar' ? null : breadcrumb ? <div className="content-breadcrumb">{breadcrumb}</div> : null}
      {/* Arco's Layout.Content is the page's <main> landmark already; this is the skip link's target. */}
      <div id="main-content" tabIndex={-1} className={pageWidth === 'fixed' ? 'page-body page-body--fixed' : 'page-body'}>
        <Suspense fallback={<PageFallback />}>{children}</Suspense>
      </div>
    </Layout.Content>
  );

  // The server refuses everything else until the password is changed (server/plugins/access.ts):
  // nothing behind the dialog calls it, so no page fails or live socket is refused meanwhile.
  if (mustChangePassword) {
    return (
      <Layout className="main-layout" data-testid="main-layout">
        <MustChangePassword />
      </Layout>
    );
  }

  return (
    <Layout
      className={`main-layout main-layout--${navMode}`}
      hasSider={navMode === 'sidebar' && hasSider}
      data-testid="main-layout"
      data-nav-mode={navMode}
    >
      <a className="skip-link" href="#main-content">
        {t('layout:skipToContent')}
      </a>
      {navMode === 'sidebar' ? (
        <>
          {sider}
          <Layout className="main-column">
            {header}
            {content}
          </Layout>
        </>
      ) : (
        <>
          {header}
          <Layout className="main-row" hasSider={hasSider}>
            {sider}
            {content}
          </Layout>
        </>
      )}
      <SettingsDrawer visible={drawer} onClose={() => setDrawer(false)} />
      <AlarmPopup />
    </Layout>
  );
}
