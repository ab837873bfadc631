/**
 * AuthCard with the platform's branding (name and logo from the public platform info, a default
 * mark when none is set) and the language switch: the frame of every page before sign-in.
 */
import { useEffect, type JSX, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { AuthCard } from '../../components/AuthCard.tsx';
import { DefaultLogo } from '../../components/DefaultLogo.tsx';
import { useSession } from '../../stores/session.ts';
import { LanguageSwitch } from './LanguageSwitch.tsx';
import { loadPlatform } from './sessionApi.ts';

export interface AuthFrameProps {
  /** Replaces the platform name as the heading (e.g. the wizard's title). */
  title?: ReactNode;
  subtitle?: ReactNode;
  width?: number;
  children: ReactNode;
  /** Beside the card (the login page's banners). */
  aside?: ReactNode;
  testId?: string;
}

export function AuthFrame(props: AuthFrameProps): JSX.Element {
  const { t } = useTranslation(['auth', 'common']);
  const platform = useSession((s) => s.platform);

  useEffect(() => {
    // Branding is decoration: without it the page still works, with the default name and mark.
    loadPlatform().catch(() => undefined);
  }, []);

  const name = platform?.name || t('common:appTitle');
  const logo = platform?.logo ? (
    <img src={platform.logo} alt={t('logoAlt')} data-testid="auth-logo" />
  ) : (
    <DefaultLogo size={56} title={t('logoAlt')} />
  );
  return (
    <AuthCard
      logo={logo}
      title={props.title ?? name}
      subtitle={props.subtitle ?? platform?.slogan ?? t('tagline')}
      toolbar={<LanguageSwitch />}
      width={props.width}
      testId={props.testId}
      footer={props.title ? name : undefined}
      aside={props.aside}
    >
      {props.children}
    </AuthCard>
  );
}
