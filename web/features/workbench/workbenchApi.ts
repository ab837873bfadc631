/** Workbench calls over the contract: counts and gateway load, and the message volume per bucket. */
import { workbenchRoutes, type MessageVolume, type WorkbenchSummary } from '../../../server/contract/workbench.ts';
import { api } from '../../lib/api-client.ts';
import type { TimeRangeValue } from '../../components/time-range.ts';

/** `silent` for the periodic refresh: one failed poll should not raise a message every 10 s. */
export function loadSummary(silent = false): Promise<WorkbenchSummary> {
  return api(workbenchRoutes.summary, { silent });
}

export function loadMessageVolume(range: TimeRangeValue): Promise<MessageVolume> {
  return api(workbenchRoutes.messages, {
    query: range.range === 'custom' ? { range: 'custom', startTs: range.startTs, endTs: range.endTs } : { range: range.range },
  });
}
