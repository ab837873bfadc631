/**
 * The login page's banners, asked for apart from their view (LoginBanners.tsx, a lazy chunk): a
 * login page without banners loads no banner code.
 */
import { useEffect, useState } from 'react';
import type { ShownEntry } from '../../../server/contract/operation.ts';
import { shownBanners } from './operationApi.ts';

/** The enabled banners; empty while loading, when there are none, or when the call fails. */
export function useLoginBanners(): ShownEntry[] {
  const [banners, setBanners] = useState<ShownEntry[]>([]);
  useEffect(() => {
    // Banners are decoration: the login page works without them.
    shownBanners().then(setBanners, () => undefined);
  }, []);
  return banners;
}
