/**
 * The signed-in shell: brand, menu, header and content, in three navigation modes:
 * - sidebar: brand and the whole menu on the left, header beside it;
 * - top: brand and the whole menu (sub-menus as pop-ups) in the header;
 * - mix: brand and the top-level groups in the header, the selected group's entries on the left.
 * Below 768 px (web/lib/use-narrow.ts) every mode gives way to a header with a menu button and the
 * whole menu in a drawer (web/layout/MenuDrawer.tsx); the breadcrumb moves above the content.
 * On entry it loads the user and platform info and the user's saved settings once, with a loading message.
 */
import { useState, type JSX, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { namespaces } from '../i18n/namespaces.ts';
import Layout from '@arco-design/web-react/es/Layout';
import { useCurrentRoute } from '../lib/current-route.ts';
import type { AppRoute } from '../app-route.ts';
import { useMustChangePassword } from '../stores/permissions.ts';
import { useSettings } from '../stores/settings.ts';
import { AppBreadcrumb } from './AppBreadcrumb.tsx';
import { AlarmPopup } from '../features/alarm/AlarmPopup.tsx';
import { MainContent } from './MainContent.tsx';
import { MainFrame } from './MainFrame.tsx';
import { MainHeader } from './MainHeader.tsx';
import { MainSider } from './MainSider.tsx';
import { SettingsDrawer } from './SettingsDrawer.tsx';
import { MustChangePassword } from './MustChangePassword.tsx';
import { useNarrow } from '../lib/use-narrow.ts';
import { useSessionInfo } from './useSessionInfo.ts';
import { useShellMenu } from './useShellMenu.ts';
import './layout.css';

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

  const mustChangePassword = useMustChangePassword();
  const { menu, selectedKey, openKeys, topKey, sideNodes } = useShellMenu(entry, navMode);
  const hasSider = sideNodes.length > 0;
  const breadcrumb = showBreadcrumb && entry && !entry.hideBreadcrumb ? <AppBreadcrumb entry={entry} /> : null;

  const header = (
    <MainHeader
      navMode={navMode}
      narrow={narrow}
      menu={menu}
      selectedKey={selectedKey}
      openKeys={openKeys}
      topKey={topKey}
      hasSider={hasSider}
      collapsed={collapsed}
      breadcrumb={breadcrumb}
      onOpenSettings={() => setDrawer(true)}
    />
  );

  const sider = hasSider ? (
    <MainSider navMode={navMode} collapsed={collapsed} language={language} nodes={sideNodes} selectedKey={selectedKey} openKeys={openKeys} />
  ) : null;

  const content = (
    <MainContent navMode={navMode} breadcrumb={breadcrumb} pageWidth={pageWidth}>
      {children}
    </MainContent>
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
    <MainFrame navMode={navMode} hasSider={hasSider} header={header} sider={sider} content={content} skipText={t('layout:skipToContent')}>
      <SettingsDrawer visible={drawer} onClose={() => setDrawer(false)} />
      <AlarmPopup />
    </MainFrame>
  );
}
