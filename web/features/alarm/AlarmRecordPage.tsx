/** Placeholder until alarms are built; the route table already lazy-loads this module as its own chunk. */
import type { JSX } from 'react';
import { NotBuiltPage } from '../../components/NotBuiltPage.tsx';

export function AlarmRecordPage(): JSX.Element {
  return <NotBuiltPage />;
}
