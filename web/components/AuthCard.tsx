/**
 * The blank-layout frame of the pages shown before sign-in (login, forgot password, activation,
 * expired licence): a centred card on a quiet background, a brand header and a corner toolbar.
 * Colours come from Arco variables so the frame follows the light or dark theme.
 */
import type { JSX, ReactNode } from 'react';
import './AuthCard.css';

export interface AuthCardProps {
  /** Logo element shown above or beside the title. */
  logo?: ReactNode;
  title: ReactNode;
  subtitle?: ReactNode;
  /** Top-right corner of the page (language switch). */
  toolbar?: ReactNode;
  /** Card width in px; the card shrinks on narrow screens. */
  width?: number;
  children: ReactNode;
  footer?: ReactNode;
  /** Beside the card on wide screens, above it on narrow ones (the login page's banners). */
  aside?: ReactNode;
  testId?: string;
}

export function AuthCard(props: AuthCardProps): JSX.Element {
  return (
    <div className={props.aside ? 'ec-auth ec-auth--aside' : 'ec-auth'} data-testid={props.testId}>
      {props.toolbar ? <div className="ec-auth__toolbar">{props.toolbar}</div> : null}
      {props.aside ? <aside className="ec-auth__aside">{props.aside}</aside> : null}
      <main className="ec-auth__card" style={{ maxWidth: props.width ?? 420 }}>
        <header className="ec-auth__brand">
          {props.logo ? <div className="ec-auth__logo">{props.logo}</div> : null}
          <h1 className="ec-auth__title">{props.title}</h1>
          {props.subtitle ? <p className="ec-auth__subtitle">{props.subtitle}</p> : null}
        </header>
        <div className="ec-auth__body">{props.children}</div>
        {props.footer ? <footer className="ec-auth__footer" data-testid="auth-footer">{props.footer}</footer> : null}
      </main>
    </div>
  );
}
