/** Placeholder until products are built (roadmap step 2); the route table already lazy-loads this module as its own chunk. */
import type { JSX } from 'react';
import { NotBuiltPage } from '../../components/NotBuiltPage.tsx';

export function ProductDetailPage(): JSX.Element {
  return <NotBuiltPage />;
}
