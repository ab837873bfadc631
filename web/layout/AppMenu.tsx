/**
 * The menu derived from the route table: categories as sub-menus, 14 px icons, the current
 * route's `currentActiveMenu` (or its own path) selected. Clicks go through the leave guard.
 */
import { useEffect, useState, type JSX } from 'react';
import { useTranslation } from 'react-i18next';
import Menu from '@arco-design/web-react/es/Menu';
import type { MenuNode } from '../lib/route-model.ts';
import { findByPath } from '../lib/route-model.ts';
import { navigateGuarded } from '../lib/navigation.ts';
import type { AppRoute } from '../app-route.ts';
import { useRoutesInForce } from '../stores/menu-routes.ts';
import { MENU_ICON_SIZE, menuIcons } from './menu-icons.tsx';

export interface AppMenuProps {
  nodes: MenuNode<AppRoute>[];
  mode: 'vertical' | 'horizontal';
  selectedKey: string | undefined;
  /** Sub-menus to open so the selected item is visible (vertical mode). */
  openKeys?: string[];
  collapse?: boolean;
  /** Leaves sub-menus out: items stand for their category (mix mode's header). */
  flat?: boolean;
  className?: string;
  /** Called after an entry was chosen (the narrow screen's menu drawer closes). */
  onPicked?: () => void;
}

function MenuIcon({ entry }: { entry: AppRoute }): JSX.Element | null {
  // A back-end menu may name an icon this console does not have: no icon then.
  if (!entry.icon || !Object.hasOwn(menuIcons, entry.icon)) return null;
  const Icon = menuIcons[entry.icon];
  return <Icon style={{ fontSize: MENU_ICON_SIZE }} className="app-menu__icon" />;
}

function onPick(routes: readonly AppRoute[], key: string): void {
  const entry = findByPath(routes, key);
  if (entry?.isLink) window.open(entry.path, '_blank', 'noopener');
  else void navigateGuarded(key);
}

export function AppMenu({ nodes, mode, selectedKey, openKeys = [], collapse = false, flat = false, className, onPicked }: AppMenuProps): JSX.Element {
  const routes = useRoutesInForce();
  const { t } = useTranslation(['layout', 'menu']);
  const [open, setOpen] = useState<string[]>(openKeys);
  const wanted = openKeys.join('|');
  // Opening the way to a newly selected item keeps whatever else the user opened.
  useEffect(() => {
    if (wanted) setOpen((prev) => [...new Set([...prev, ...wanted.split('|')])]);
  }, [wanted]);

  const render = (list: MenuNode<AppRoute>[]): JSX.Element[] =>
    list.map((node) => {
      const label = (
        <>
          <MenuIcon entry={node.entry} />
          <span className="app-menu__label">{t(node.entry.titleKey)}</span>
        </>
      );
      if (node.children && !flat) {
        return (
          <Menu.SubMenu key={node.key} title={label} data-testid={`menu-${node.entry.name}`}>
            {render(node.children)}
          </Menu.SubMenu>
        );
      }
      return (
        <Menu.Item key={node.key} data-testid={`menu-${node.entry.name}`}>
          {label}
        </Menu.Item>
      );
    });

  return (
    <nav aria-label={t('layout:mainMenu')} className={className}>
      <Menu
        className="app-menu"
        mode={mode}
        collapse={mode === 'vertical' && collapse}
        selectedKeys={selectedKey ? [selectedKey] : []}
        openKeys={mode === 'vertical' ? open : undefined}
        onClickSubMenu={(_key, keys) => setOpen(keys)}
        onClickMenuItem={(key: string) => {
          onPick(routes, key);
          onPicked?.();
        }}
        autoScrollIntoView
      >
        {render(nodes)}
      </Menu>
    </nav>
  );
}
