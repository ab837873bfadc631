/**
 * The shell's arrangement of its parts: in sidebar mode the side menu spans the full height with
 * header and content beside it; in the other modes the header spans the width above menu and content.
 */
import type { JSX, ReactNode } from 'react';
import Layout from '@arco-design/web-react/es/Layout';
import type { NavMode } from '../stores/settings.ts';

export interface MainFrameProps {
  navMode: NavMode;
  hasSider: boolean;
  header: ReactNode;
  sider: ReactNode;
  content: ReactNode;
  /** The skip link's text (to the page body). */
  skipText: string;
  /** Overlays that belong to the shell (settings drawer, alarm pop-up). */
  children: ReactNode;
}

export function MainFrame({ navMode, hasSider, header, sider, content, skipText, children }: MainFrameProps): JSX.Element {
  return (
    <Layout
      className={`main-layout main-layout--${navMode}`}
      hasSider={navMode === 'sidebar' && hasSider}
      data-testid="main-layout"
      data-nav-mode={navMode}
    >
      <a className="skip-link" href="#main-content">
        {skipText}
      </a>
      {navMode === 'sidebar' ? (
        <>
          {sider}
          <Layout className="main-column">
            {header}
            {content}
          </Layout>
        </>
      ) : (
        <>
          {header}
          <Layout className="main-row" hasSider={hasSider}>
            {sider}
            {content}
          </Layout>
        </>
      )}
      {children}
    </Layout>
  );
}
