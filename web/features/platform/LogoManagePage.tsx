/** Placeholder until operation management is built; the route table already lazy-loads this module as its own chunk. */
import type { JSX } from 'react';
import { NotBuiltPage } from '../../components/NotBuiltPage.tsx';

export function LogoManagePage(): JSX.Element {
  return <NotBuiltPage />;
}
