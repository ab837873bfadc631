/** The route-table entry being shown, for pieces that render from its meta (title, breadcrumb). */
import { createContext, useContext } from 'react';
import type { AppRoute } from '../app-route.ts';

export interface CurrentRoute {
  entry: AppRoute;
  params: Record<string, string>;
}

export const CurrentRouteContext = createContext<CurrentRoute | null>(null);

export function useCurrentRoute(): CurrentRoute | null {
  return useContext(CurrentRouteContext);
}
