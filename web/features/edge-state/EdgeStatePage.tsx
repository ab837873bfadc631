/**
 * System → edge state (the gateway's own state; the menu calls it "marginal state"). This version
 * does not have it yet: the page says so. It is its own lazily loaded chunk, so building the page
 * replaces this module and leaves the route table alone.
 */
import type { JSX } from 'react';
import { NotBuiltPage } from '../../components/NotBuiltPage.tsx';

export function EdgeStatePage(): JSX.Element {
  return <NotBuiltPage />;
}
