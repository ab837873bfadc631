/** The shell's header: menu drawer (phones), brand, collapse button, breadcrumb (sidebar mode), the menu (top and mix modes), actions. */
import type { JSX, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import Button from '@arco-design/web-react/es/Button';
import Layout from '@arco-design/web-react/es/Layout';
import IconMenuFold from '@arco-design/web-react/icon/react-icon/IconMenuFold';
import IconMenuUnfold from '@arco-design/web-react/icon/react-icon/IconMenuUnfold';
import type { MenuNode } from '../lib/route-model.ts';
import type { AppRoute } from '../app-route.ts';
import { updateSettings, type NavMode } from '../stores/settings.ts';
import { AppMenu } from './AppMenu.tsx';
import { Brand } from './Brand.tsx';
import { HeaderActions } from './HeaderActions.tsx';
import { MenuDrawer } from './MenuDrawer.tsx';

export interface MainHeaderProps {
  navMode: NavMode;
  narrow: boolean;
  menu: MenuNode<AppRoute>[];
  selectedKey: string | undefined;
  openKeys: string[];
  /** The selected top-level group (mix mode highlights it). */
  topKey: string | undefined;
  /** A side menu is shown: the header then has its collapse button. */
  hasSider: boolean;
  collapsed: boolean;
  breadcrumb: ReactNode;
  onOpenSettings: () => void;
}

export function MainHeader(props: MainHeaderProps): JSX.Element {
  const { navMode, narrow, menu, selectedKey, openKeys, topKey, hasSider, collapsed, breadcrumb, onOpenSettings } = props;
  const { t } = useTranslation(['layout', 'common']);
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
  return (
    <Layout.Header className={`main-header main-header--${navMode}${narrow ? ' main-header--narrow' : ''}`}>
      {narrow ? <MenuDrawer menu={menu} selectedKey={selectedKey} openKeys={openKeys} /> : null}
      {navMode === 'sidebar' ? null : <Brand />}
      {toggle}
      {navMode === 'sidebar' ? breadcrumb : null}
      {navMode === 'top' && !narrow ? (
        <AppMenu className="header-menu" nodes={menu} mode="horizontal" selectedKey={selectedKey} />
      ) : null}
      {navMode === 'mix' ? (
        <AppMenu className="header-menu" nodes={menu} mode="horizontal" selectedKey={topKey} flat />
      ) : null}
      <div className="header-spacer" />
      <HeaderActions onOpenSettings={onOpenSettings} />
    </Layout.Header>
  );
}
