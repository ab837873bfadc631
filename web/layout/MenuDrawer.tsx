/**
 * The menu on a narrow screen (web/lib/use-narrow.ts): a header button opens a drawer from the
 * left with the brand and the whole menu; choosing an entry closes it, as do Escape and a tap
 * on the mask.
 */
import { useState, type JSX } from 'react';
import { useTranslation } from 'react-i18next';
import Button from '@arco-design/web-react/es/Button';
import Drawer from '@arco-design/web-react/es/Drawer';
import IconMenu from '@arco-design/web-react/icon/react-icon/IconMenu';
import type { AppRoute } from '../app-route.ts';
import type { MenuNode } from '../lib/route-model.ts';
import { AppMenu } from './AppMenu.tsx';
import { Brand } from './Brand.tsx';

/** Room for the longest English group name, never more than most of a phone's width. */
const MENU_DRAWER_WIDTH = 'min(300px, 85vw)';

export interface MenuDrawerProps {
  menu: MenuNode<AppRoute>[];
  selectedKey: string | undefined;
  openKeys: string[];
}

export function MenuDrawer({ menu, selectedKey, openKeys }: MenuDrawerProps): JSX.Element {
  const { t } = useTranslation('layout');
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button
        type="text"
        className="header-collapse"
        icon={<IconMenu />}
        aria-label={t('openMenu')}
        aria-expanded={open}
        data-testid="menu-drawer-open"
        onClick={() => setOpen(true)}
      />
      <Drawer
        className="menu-drawer"
        placement="left"
        width={MENU_DRAWER_WIDTH}
        title={null}
        footer={null}
        closable={false}
        visible={open}
        onCancel={() => setOpen(false)}
        focusLock
        autoFocus
        escToExit
      >
        <div data-testid="menu-drawer">
          {/* The brand links to the workbench: following it closes the drawer like a menu entry. */}
          <div onClick={() => setOpen(false)}>
            <Brand />
          </div>
          <AppMenu className="side-menu" nodes={menu} mode="vertical" selectedKey={selectedKey} openKeys={openKeys} onPicked={() => setOpen(false)} />
        </div>
      </Drawer>
    </>
  );
}
