/** Breadcrumb of the current route, derived from the route table; earlier items navigate. */
import type { JSX } from 'react';
import { useTranslation } from 'react-i18next';
import Breadcrumb from '@arco-design/web-react/es/Breadcrumb';
import { breadcrumbFor } from '../lib/route-model.ts';
import { navigateGuarded } from '../lib/navigation.ts';
import type { AppRoute } from '../app-route.ts';
import { useRoutesInForce } from '../stores/menu-routes.ts';

export function AppBreadcrumb({ entry }: { entry: AppRoute }): JSX.Element | null {
  const { t } = useTranslation(['layout', 'menu']);
  const crumbs = breadcrumbFor(useRoutesInForce(), entry);
  if (crumbs.length === 0) return null;
  return (
    <nav aria-label={t('layout:breadcrumb')} className="app-breadcrumb" data-testid="breadcrumb">
      <Breadcrumb>
        {crumbs.map((crumb, i) => {
          const title = t(crumb.titleKey);
          const last = i === crumbs.length - 1;
          return (
            <Breadcrumb.Item key={crumb.path}>
              {last ? (
                <span aria-current="page">{title}</span>
              ) : (
                <a
                  href={crumb.path}
                  onClick={(e) => {
                    e.preventDefault();
                    void navigateGuarded(crumb.path);
                  }}
                >
                  {title}
                </a>
              )}
            </Breadcrumb.Item>
          );
        })}
      </Breadcrumb>
    </nav>
  );
}
