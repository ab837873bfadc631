/**
 * The type of a row of the route table (web/routes.tsx). It lives apart from the table so that
 * pages and the layout can name it without importing the table, which imports every page.
 */
import type { MenuIconName } from './layout/menu-icons.tsx';
import type { RouteEntry } from './lib/route-model.ts';
import type menuTitles from '../locales/zh_CN/menu.json';

export type MenuTitleKey = `menu:${keyof typeof menuTitles}`;
export type AppRoute = RouteEntry<MenuIconName, MenuTitleKey>;
