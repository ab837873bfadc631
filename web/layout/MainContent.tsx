/** The shell's content column: the breadcrumb (outside sidebar mode), then the page, suspended while its code loads. */
import { Suspense, type JSX, type ReactNode } from 'react';
import Layout from '@arco-design/web-react/es/Layout';
import Spin from '@arco-design/web-react/es/Spin';
import type { NavMode, PageWidth } from '../stores/settings.ts';
import { LicenseExpiryBanner } from '../features/license/LicenseExpiryBanner.tsx';

function PageFallback(): JSX.Element {
  return (
    <div className="page-fallback">
      <Spin />
    </div>
  );
}

export interface MainContentProps {
  navMode: NavMode;
  breadcrumb: ReactNode;
  pageWidth: PageWidth;
  children: ReactNode;
}

export function MainContent({ navMode, breadcrumb, pageWidth, children }: MainContentProps): JSX.Element {
  return (
    <Layout.Content className="main-content">
      <LicenseExpiryBanner />
      {navMode === 'sidebar' ? null : breadcrumb ? <div className="content-breadcrumb">{breadcrumb}</div> : null}
      {/* Arco's Layout.Content is the page's <main> landmark already; this is the skip link's target. */}
      <div id="main-content" tabIndex={-1} className={pageWidth === 'fixed' ? 'page-body page-body--fixed' : 'page-body'}>
        <Suspense fallback={<PageFallback />}>{children}</Suspense>
      </div>
    </Layout.Content>
  );
}
