/** The shell's side menu: the brand (sidebar mode) and the menu entries, collapsible. */
import type { JSX } from 'react';
import Layout from '@arco-design/web-react/es/Layout';
import type { Language } from '../../server/contract/languages.ts';
import type { MenuNode } from '../lib/route-model.ts';
import type { AppRoute } from '../app-route.ts';
import type { NavMode } from '../stores/settings.ts';
import { AppMenu } from './AppMenu.tsx';
import { Brand } from './Brand.tsx';

/** English group names ("Visualization configuration") need more room than Chinese ones. */
const SIDER_WIDTH: Record<Language, number> = { zh_CN: 220, en_US: 256 };
const SIDER_COLLAPSED_WIDTH = 48;

export interface MainSiderProps {
  navMode: NavMode;
  collapsed: boolean;
  language: Language;
  nodes: MenuNode<AppRoute>[];
  selectedKey: string | undefined;
  openKeys: string[];
}

export function MainSider({ navMode, collapsed, language, nodes: sideNodes, selectedKey, openKeys }: MainSiderProps): JSX.Element {
  return (
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
  );
}
