/**
 * Session: tokens, the signed-in user, platform branding. Sign-in logs in, stores
 * the tokens, fetches user info and stores it; reset clears token, refresh token, menu, tenant and
 * platform info. Tokens live in localStorage for 7 days with "remember", else in this tab only.
 */
import { create } from 'zustand';
import type { TokenPair } from '../../server/contract/auth.ts';
import type { UserInfo } from '../../server/contract/user.ts';
import type { PlatformInfo } from '../../server/contract/platform.ts';
import { StorageKey, storage } from '../lib/storage.ts';
import { listenForRotations } from '../lib/session-sync.ts';

export interface SessionState {
  token: string | null;
  refreshToken: string | null;
  user: UserInfo | null;
  platform: PlatformInfo | null;
  /** Keep the session across browser restarts (the login page's "remember password"). */
  remember: boolean;
}

function initial(): SessionState {
  return {
    token: storage.get<string>(StorageKey.TOKEN),
    refreshToken: storage.get<string>(StorageKey.REFRESH_TOKEN),
    user: storage.get<UserInfo>(StorageKey.TENANT_INFO),
    platform: storage.get<PlatformInfo>(StorageKey.PLATFORM_INFO),
    remember: storage.get<boolean>(StorageKey.REMEMBER_ME) ?? false,
  };
}

export const useSession = create<SessionState>(() => initial());

export function getSession(): SessionState {
  return useSession.getState();
}

/** Actions usable outside components (the HTTP client calls them on 401 and code 99). */
export const sessionActions = {
  setTokens(pair: TokenPair, remember = getSession().remember): void {
    const persistent = remember;
    storage.set(StorageKey.TOKEN, pair.token, { persistent });
    storage.set(StorageKey.REFRESH_TOKEN, pair.refreshToken, { persistent });
    storage.set(StorageKey.REMEMBER_ME, remember);
    useSession.setState({ token: pair.token, refreshToken: pair.refreshToken, remember });
  },
  setUser(user: UserInfo): void {
    storage.set(StorageKey.TENANT_INFO, user, { persistent: getSession().remember });
    useSession.setState({ user });
  },
  setPlatform(platform: PlatformInfo): void {
    storage.set(StorageKey.PLATFORM_INFO, platform);
    useSession.setState({ platform });
  },
  /** Takes the stored pair when another tab stored a newer one; true when it did. */
  adoptStoredTokens(): boolean {
    const token = storage.get<string>(StorageKey.TOKEN);
    const refreshToken = storage.get<string>(StorageKey.REFRESH_TOKEN);
    if (!token || !refreshToken || refreshToken === getSession().refreshToken) return false;
    useSession.setState({ token, refreshToken });
    return true;
  },
  reset(): void {
    for (const key of [StorageKey.TOKEN, StorageKey.REFRESH_TOKEN, StorageKey.MENU_LIST, StorageKey.TENANT_INFO, StorageKey.PERMISSIONS, StorageKey.PLATFORM_INFO]) {
      storage.remove(key);
    }
    useSession.setState({ token: null, refreshToken: null, user: null, platform: null });
  },
};

// A tab whose storage is not shared (a duplicated tab without "remember") hears rotations here.
listenForRotations(
  () => getSession().refreshToken,
  (pair) => sessionActions.setTokens(pair),
);

// Branding saved in another tab (operation management) reaches this one at once: the saving tab
// stores it in localStorage, and the browser tells every other tab of the change.
if (typeof window !== 'undefined') {
  window.addEventListener('storage', (e) => {
    if (e.key !== StorageKey.PLATFORM_INFO) return;
    useSession.setState({ platform: storage.get<PlatformInfo>(StorageKey.PLATFORM_INFO) });
  });
}
