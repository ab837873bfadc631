/**
 * Pure logic over the route table (web/routes.tsx): path matching, guards, menu tree, selected
 * menu, breadcrumb and page title. No React and no DOM, so tests run it directly on the table.
 */
import type { ComponentType } from 'react';

/** A page module as lazy() wants it. */
export type PageLoader = () => Promise<{ default: ComponentType }>;

export type RouteLayout = 'main' | 'blank' | 'operation';

/**
 * One row of the route table. The menu, breadcrumb, page title and guards are all derived from
 * these fields:
 * - `path`: wouter-style pattern; `:id` is a parameter, `:alarm?` an optional trailing one.
 * - `name`: unique identifier; children point at their category through `group`.
 * - `titleKey`: i18n key of the menu label, breadcrumb item and page title.
 * - `group`: `name` of the category entry this entry belongs to. An entry that other entries
 *   name as their group is a category: it has no page and redirects to its first child.
 * - `sort`: order among siblings (ascending; ties keep table order).
 * - `icon`: menu icon name (rendered 14 px by the layout).
 * - `permission`: permission string required to see and open the entry; without one the entry
 *   ignores authorization.
 * - `hideMenu`: routable but not shown in the menu (detail pages, exception page).
 * - `currentActiveMenu`: path of the menu entry to highlight while this (hidden) entry is open.
 * - `status`: 0 = disabled (neither in the menu nor routable); anything else or absent = enabled.
 * - `isLink`: `path` is an external URL; the menu opens it in a new tab.
 * - `hideBreadcrumb`: leave this entry out of breadcrumbs.
 * - `layout`: 'main' (sidebar/header shell, needs a token), 'blank' (full page) or 'operation'
 *   (operation management's own shell, needs a token; its entries are in the menu too).
 * - `public`: reachable without a token (login, guide, licence upload).
 * - `redirect`: path this entry forwards to (the root goes to the workbench).
 * - `page`: lazy page module; absent on categories and redirects.
 * - `menuType`: the spec's node type: `category`, `menu` or `button`.
 * - `component`: the page's name, by which a menu entry resolves to its page (`pageFor`).
 * - `hideChildrenInMenu`: the entry shows in the menu as one item, its children left out.
 * - `fixed`: always the console's own entry, also in the back-end menu mode (sign-in, exception).
 */
export interface RouteEntry<Icon extends string = string, TitleKey extends string = string> {
  path: string;
  name: string;
  titleKey: TitleKey;
  group?: string;
  sort: number;
  icon?: Icon;
  permission?: string;
  hideMenu?: boolean;
  currentActiveMenu?: string;
  status?: number;
  isLink?: boolean;
  hideBreadcrumb?: boolean;
  layout: RouteLayout;
  public?: boolean;
  redirect?: string;
  page?: PageLoader;
  menuType?: 'category' | 'menu' | 'button';
  component?: string;
  hideChildrenInMenu?: boolean;
  fixed?: boolean;
}

export type AnyRoute = RouteEntry<string, string>;

export interface MenuNode<R extends AnyRoute = AnyRoute> {
  /** The menu key: the entry's path (what "selected" compares against). */
  key: string;
  entry: R;
  children?: MenuNode<R>[];
}

export interface Crumb<TitleKey extends string = string> {
  path: string;
  titleKey: TitleKey;
}

// ---------------------------------------------------------------------------------------------
// Matching

interface CompiledPath {
  regex: RegExp;
  keys: string[];
}

const compiled = new Map<string, CompiledPath>();

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function compile(pattern: string): CompiledPath {
  const hit = compiled.get(pattern);
  if (hit) return hit;
  const keys: string[] = [];
  let source = '';
  for (const segment of pattern.split('/').filter(Boolean)) {
    const param = /^:(\w+)(\?)?$/.exec(segment);
    if (param) {
      keys.push(param[1] as string);
      source += param[2] ? '(?:/([^/]+))?' : '/([^/]+)';
    } else {
      source += `/${escapeRegex(segment)}`;
    }
  }
  const result = { regex: new RegExp(`^${source || '/'}/?$`, 'i'), keys };
  compiled.set(pattern, result);
  return result;
}

/** Parameters of `pathname` under `pattern`, or null when it does not match. */
export function matchPath(pattern: string, pathname: string): Record<string, string> | null {
  const { regex, keys } = compile(pattern);
  const m = regex.exec(pathname);
  if (!m) return null;
  const params: Record<string, string> = {};
  keys.forEach((key, i) => {
    const value = m[i + 1];
    if (value !== undefined) params[key] = safeDecode(value);
  });
  return params;
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** The entry whose pattern matches `pathname` (table order), with its parameters. */
export function findRoute<R extends AnyRoute>(
  routes: readonly R[],
  pathname: string,
): { entry: R; params: Record<string, string> } | null {
  for (const entry of routes) {
    if (entry.isLink) continue;
    const params = matchPath(entry.path, pathname);
    if (params) return { entry, params };
  }
  return null;
}

export function findByName<R extends AnyRoute>(routes: readonly R[], name: string | undefined): R | undefined {
  return name === undefined ? undefined : routes.find((r) => r.name === name);
}

export function findByPath<R extends AnyRoute>(routes: readonly R[], path: string | undefined): R | undefined {
  return path === undefined ? undefined : routes.find((r) => r.path === path);
}

// ---------------------------------------------------------------------------------------------
// Visibility and access

export function isEnabled(entry: AnyRoute): boolean {
  return entry.status !== 0;
}

/** An entry without a permission ignores authorization. */
export function canAccess(entry: AnyRoute, permissions: readonly string[]): boolean {
  return !entry.permission || permissions.includes(entry.permission);
}

/** Stable ascending order by `sort`; equal sorts keep the table's order. */
export function sortBySort<R extends AnyRoute>(entries: readonly R[]): R[] {
  return entries
    .map((entry, index) => ({ entry, index }))
    .sort((a, b) => a.entry.sort - b.entry.sort || a.index - b.index)
    .map((x) => x.entry);
}

export function childrenOf<R extends AnyRoute>(routes: readonly R[], name: string): R[] {
  return sortBySort(routes.filter((r) => r.group === name));
}

export function isCategory(routes: readonly AnyRoute[], entry: AnyRoute): boolean {
  return routes.some((r) => r.group === entry.name);
}

function shownInMenu(entry: AnyRoute, permissions: readonly string[]): boolean {
  return entry.layout !== 'blank' && !entry.public && !entry.hideMenu && isEnabled(entry) && canAccess(entry, permissions);
}

/**
 * The menu tree: categories become sub-menus, ordered by sort; disabled, hidden and forbidden
 * entries are left out, and so is a category left without any visible child.
 */
export function buildMenu<R extends AnyRoute>(routes: readonly R[], permissions: readonly string[]): MenuNode<R>[] {
  const build = (entries: R[]): MenuNode<R>[] =>
    entries.flatMap((entry): MenuNode<R>[] => {
      if (!shownInMenu(entry, permissions)) return [];
      if (!isCategory(routes, entry)) return entry.page || entry.isLink ? [{ key: entry.path, entry }] : [];
      const children = build(childrenOf(routes, entry.name));
      if (!children.length) return [];
      return entry.hideChildrenInMenu ? [{ key: entry.path, entry }] : [{ key: entry.path, entry, children }];
    });
  return build(sortBySort(routes.filter((r) => r.group === undefined)));
}

/**
 * Where a category sends the user: its first child by sort that is enabled, accessible and has a
 * page (descending into nested categories); visible children are preferred over hidden ones.
 */
export function firstChildPath(routes: readonly AnyRoute[], entry: AnyRoute, permissions: readonly string[]): string | null {
  const candidates = childrenOf(routes, entry.name).filter(
    (c) => isEnabled(c) && canAccess(c, permissions) && !c.isLink,
  );
  const ordered = [...candidates.filter((c) => !c.hideMenu), ...candidates.filter((c) => c.hideMenu)];
  for (const child of ordered) {
    if (isCategory(routes, child)) {
      const nested = firstChildPath(routes, child, permissions);
      if (nested) return nested;
    } else if (child.page && !/:/.test(child.path)) {
      return child.path;
    }
  }
  return null;
}

export type Resolution<R extends AnyRoute> =
  | { kind: 'page'; entry: R; params: Record<string, string> }
  | { kind: 'redirect'; to: string }
  | { kind: 'forbidden'; entry: R }
  | { kind: 'notFound' };

/** What to do with `pathname`: show a page, forward, or report it unknown or forbidden. */
export function resolveRoute<R extends AnyRoute>(
  routes: readonly R[],
  pathname: string,
  permissions: readonly string[],
): Resolution<R> {
  const found = findRoute(routes, pathname);
  if (!found || !isEnabled(found.entry)) return { kind: 'notFound' };
  const { entry, params } = found;
  if (entry.redirect) return { kind: 'redirect', to: entry.redirect };
  if (!canAccess(entry, permissions)) return { kind: 'forbidden', entry };
  if (isCategory(routes, entry) && !entry.page) {
    const to = firstChildPath(routes, entry, permissions);
    return to ? { kind: 'redirect', to } : { kind: 'notFound' };
  }
  if (!entry.page) return { kind: 'notFound' };
  return { kind: 'page', entry, params };
}

/** Login with a way back for pages behind the token guard; null when the entry may be shown. */
export function tokenGuardRedirect(entry: AnyRoute, hasToken: boolean, loginPath: string, here: string): string | null {
  if (entry.public || hasToken) return null;
  return `${loginPath}?redirect=${encodeURIComponent(here)}`;
}

// ---------------------------------------------------------------------------------------------
// Selection, breadcrumb, title

/** The menu key to highlight for an entry (its `currentActiveMenu` for hidden detail pages). */
export function activeMenuKey(entry: AnyRoute): string {
  return entry.currentActiveMenu ?? entry.path;
}

/** The entry's categories from the top down (not including the entry). */
export function ancestorsOf<R extends AnyRoute>(routes: readonly R[], entry: R): R[] {
  const chain: R[] = [];
  const seen = new Set<string>([entry.name]);
  let parent = findByName(routes, entry.group);
  while (parent && !seen.has(parent.name)) {
    chain.unshift(parent);
    seen.add(parent.name);
    parent = findByName(routes, parent.group);
  }
  return chain;
}

/** Sub-menu keys to open so the highlighted item is visible. */
export function openMenuKeys(routes: readonly AnyRoute[], entry: AnyRoute): string[] {
  const active = findByPath(routes, activeMenuKey(entry)) ?? entry;
  return ancestorsOf(routes, active).map((a) => a.path);
}

/** The top-level category (or top-level entry) the entry lives under: the header item in mix mode. */
export function topLevelOf<R extends AnyRoute>(routes: readonly R[], entry: R): R {
  const active = findByPath(routes, activeMenuKey(entry)) ?? entry;
  return ancestorsOf(routes, active)[0] ?? active;
}

/**
 * Breadcrumb: the categories, then the menu entry a hidden page highlights (Product for Product
 * detail), then the entry itself; entries flagged hideBreadcrumb are skipped.
 */
export function breadcrumbFor<R extends AnyRoute>(routes: readonly R[], entry: R): Crumb<R['titleKey']>[] {
  const active = entry.currentActiveMenu ? findByPath(routes, entry.currentActiveMenu) : undefined;
  const trail = [...ancestorsOf(routes, active ?? entry), ...(active && active !== entry ? [active] : []), entry];
  return trail.filter((e) => !e.hideBreadcrumb).map((e) => ({ path: e.path, titleKey: e.titleKey }));
}

/** `<route title> - <platform name>`, else the app title. */
export function pageTitle(routeTitle: string | undefined, platformName: string | null | undefined, appTitle: string): string {
  if (!routeTitle) return appTitle;
  return `${routeTitle} - ${platformName || appTitle}`;
}

// ---------------------------------------------------------------------------------------------
// First-boot state

export interface SetupFlags {
  licensed: boolean;
  licenseExpired: boolean;
  adminCreated: boolean;
}

/**
 * Start-up check: an unlicensed gateway or one without an administrator goes to the activation
 * wizard, an expired licence to the licence upload page; null when nothing is to be done (also
 * when the user is already where the check would send them, so it cannot loop).
 */
export function setupRedirect(state: SetupFlags, pathname: string, guidePath: string, expiredPath: string): string | null {
  let target: string | null = null;
  // Without an administrator nobody could sign in on the expired-licence page: the wizard first.
  if (!state.licensed || !state.adminCreated) target = guidePath;
  else if (state.licenseExpired) target = expiredPath;
  if (!target) return null;
  const here = pathname.replace(/\/+$/, '') || '/';
  return here === target || here.startsWith(`${target}/`) ? null : target;
}
