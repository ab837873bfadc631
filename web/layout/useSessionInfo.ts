import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import Message from '@arco-design/web-react/es/Message';
import { loadPlatform, loadUser } from '../features/auth/sessionApi.ts';
import { useSession } from '../stores/session.ts';
import { syncServerSettings } from '../stores/settings-server.ts';

/**
 * Whether this session's user and platform info were loaded: navigating between pages or a token
 * refresh does not reload them; signing out (the token goes away) starts a new session.
 */
let loaded = false;
useSession.subscribe((state) => {
  if (!state.token) loaded = false;
});

/** On entry, loads the user and platform info and the user's saved settings once, with a loading message. */
export function useSessionInfo(): void {
  const { t } = useTranslation(['layout', 'common']);
  const hasToken = useSession((s) => Boolean(s.token));
  useEffect(() => {
    if (!hasToken || loaded) return;
    loaded = true;
    const close = Message.loading({ id: 'session-loading', content: t('layout:loadingSession'), duration: 0 });
    const userThenSettings = loadUser().then(async (user) => {
      await syncServerSettings(user.userId).catch(() => undefined);
      return user;
    });
    void Promise.allSettled([userThenSettings, loadPlatform()]).then(([user]) => {
      if (user.status === 'rejected') loaded = false;
      close();
    });
    // oxlint-disable-next-line react-hooks/exhaustive-deps -- only a new session warrants another load; a language change (new `t`) does not.
  }, [hasToken]);
}
