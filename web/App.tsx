/**
 * The console's root: Arco's locale, the start-up setup check, and routing from the route table.
 * Public full-page screens render on their own; operation management inside its own shell;
 * everything else inside the main layout
 * (its own lazy chunk, so the login page never downloads the menu) behind the token guard.
 */
import { lazy, Suspense, useEffect, useMemo, useState, type JSX, type LazyExoticComponent, type ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { Redirect, Route, useLocation, useSearch } from 'wouter';
import { navigate } from 'wouter/use-browser-location';
import ConfigProvider from '@arco-design/web-react/es/ConfigProvider';
import zhCN from '@arco-design/web-react/es/locale/zh-CN';
import enUS from '@arco-design/web-react/es/locale/en-US';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import { licenseRoutes } from '../server/contract/license.ts';
import { api } from './lib/api-client.ts';
import { consolePaths } from '../server/contract/console-paths.ts';
import { CurrentRouteContext, type CurrentRoute } from './lib/current-route.ts';
import { pageTitle, resolveRoute, setupRedirect, tokenGuardRedirect, type PageLoader } from './lib/route-model.ts';
import type { MenuTitleKey } from './app-route.ts';
import { useMyPermissions } from './stores/permissions.ts';
import { permissions as everyPermission } from '../server/contract/permissions.ts';
import { useConsoleRoutes } from './stores/menu-routes.ts';
import { useSession } from './stores/session.ts';
import { ErrorBoundary } from './components/ErrorBoundary.tsx';
import { safeRedirect } from './features/auth/redirect.ts';
import { BootSpinner } from './components/BootSpinner.tsx';

const MainLayout = lazy(() => import('./layout/MainLayout.tsx').then((m) => ({ default: m.MainLayout })));
const OperationLayout = lazy(() => import('./features/operation/OperationLayout.tsx').then((m) => ({ default: m.OperationLayout })));

const lazyPages = new Map<PageLoader, LazyExoticComponent<ComponentType>>();
function lazyPage(load: PageLoader): LazyExoticComponent<ComponentType> {
  let page = lazyPages.get(load);
  if (!page) {
    page = lazy(load);
    lazyPages.set(load, page);
  }
  return page;
}

/**
 * Asks the gateway once whether it is activated: without a licence or administrator the wizard, with an expired licence the upload page. Rendering waits
 * for the answer so a login page does not flash before the wizard; a failed check lets the
 * console through (the API's own code 99 handling still applies).
 */
function useSetupCheck(): boolean {
  const [checked, setChecked] = useState(false);
  useEffect(() => {
    let alive = true;
    api(licenseRoutes.setupState, { silent: true })
      .then((state) => {
        const to = setupRedirect(state, window.location.pathname, consolePaths.guide, consolePaths.expiredLicense);
        if (to && alive) navigate(to, { replace: true });
      })
      .catch(() => undefined)
      .finally(() => alive && setChecked(true));
    return () => {
      alive = false;
    };
  }, []);
  return checked;
}

function useDocumentTitle(titleKey: MenuTitleKey | undefined): void {
  const { t } = useTranslation(['common', 'menu']);
  const platformName = useSession((s) => s.platform?.name);
  const title = pageTitle(titleKey ? t(titleKey) : undefined, platformName, t('common:appTitle'));
  useEffect(() => {
    document.title = title;
  }, [title]);
}

/** The uploaded platform icon as the favicon, when there is one. */
function useFavicon(): void {
  const icon = useSession((s) => s.platform?.icon);
  useEffect(() => {
    if (!icon) return;
    let link = document.querySelector<HTMLLinkElement>('link[rel="icon"]');
    if (!link) {
      link = document.createElement('link');
      link.rel = 'icon';
      document.head.appendChild(link);
    }
    link.href = icon;
  }, [icon]);
}

function Shell(): JSX.Element {
  const [pathname] = useLocation();
  const search = useSearch();
  const token = useSession((s) => s.token);
  const checked = useSetupCheck();
  const routes = useConsoleRoutes();
  // Public pages (sign-in, activation) need no permissions and must call nothing behind sign-in;
  // without a token nothing is forbidden yet: the token guard below sends the user to sign in, and
  // the page is judged by their permissions once they have some.
  const publicPage = useMemo(() => {
    const open = routes ? resolveRoute(routes, pathname, everyPermission) : null;
    return open?.kind === 'page' && Boolean(open.entry.public);
  }, [routes, pathname]);
  const mine = useMyPermissions(!publicPage);
  const permissions = token && !publicPage ? mine : everyPermission;
  const resolution = useMemo(
    () => (routes && permissions ? resolveRoute(routes, pathname, permissions) : null),
    [routes, pathname, permissions],
  );
  const current: CurrentRoute | null = resolution?.kind === 'page' ? { entry: resolution.entry, params: resolution.params } : null;
  useDocumentTitle(current?.entry.titleKey);
  useFavicon();

  // The back-end menu and the user's permissions load once per session before any page is resolved against them.
  if (!checked || !resolution) return <BootSpinner />;
  if (resolution.kind === 'redirect') return <Redirect key={resolution.to} to={resolution.to} replace />;
  if (resolution.kind === 'notFound') return <Redirect key="notFound" to={consolePaths.exception} replace />;
  if (resolution.kind === 'forbidden') return <Redirect key="forbidden" to={`${consolePaths.exception}?type=403`} replace />;
  const { entry } = resolution;
  const here = search ? `${pathname}?${search}` : pathname;
  const guard = tokenGuardRedirect(entry, Boolean(token), consolePaths.login, here);
  // Keyed: wouter's Redirect navigates on mount only, and a second redirect right after the first
  // (/ → workbench → login) would otherwise reuse the mounted one and never fire.
  if (guard) return <Redirect key={guard} to={guard} replace />;
  // A signed-in user has nothing to do on the sign-in page: on to where signing in would lead.
  if (token && pathname === consolePaths.login) return <Redirect key="signed-in" to={safeRedirect(new URLSearchParams(search).get('redirect'))} replace />;

  const Page = lazyPage(entry.page as PageLoader);
  const page = (
    <CurrentRouteContext.Provider value={current}>
      {/* wouter's Route gives pages useParams() for the entry's pattern. */}
      <Route path={entry.path}>
        <ErrorBoundary key={entry.path}>
          <Page />
        </ErrorBoundary>
      </Route>
    </CurrentRouteContext.Provider>
  );
  if (entry.layout === 'blank') return <Suspense fallback={<BootSpinner />}>{page}</Suspense>;
  const Frame = entry.layout === 'operation' ? OperationLayout : MainLayout;
  return (
    <Suspense fallback={<BootSpinner />}>
      <CurrentRouteContext.Provider value={current}>
        <Frame>{page}</Frame>
      </CurrentRouteContext.Provider>
    </Suspense>
  );
}

export function App(): JSX.Element {
  const { i18n } = useTranslation();
  const english = i18n.language === 'en_US';
  useEffect(() => {
    dayjs.locale(english ? 'en' : 'zh-cn');
  }, [english]);
  return (
    <ConfigProvider locale={english ? enUS : zhCN}>
      <Shell />
    </ConfigProvider>
  );
}
