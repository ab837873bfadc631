/** Placeholder until the workbench is built (roadmap step 3); the route table already lazy-loads this module as its own chunk. */
import type { JSX } from 'react';
import { NotBuiltPage } from '../../components/NotBuiltPage.tsx';

export function WorkbenchPage(): JSX.Element {
  return <NotBuiltPage />;
}
