/** A connection test of the form's settings, and what it answered, for CloudTestAlert to show. */
import { useCallback, useState } from 'react';
import type { CloudConfig } from '../../../server/contract/cloud.ts';
import type { CloudTestResult } from '../../../server/contract/cloud-link.ts';
import { errorMessage } from '../../lib/error-text.ts';
import { testCloudConfig } from './cloudApi.ts';

export type CloudTestOutcome = CloudTestResult | { unavailable: true } | { failure: string };

export interface CloudTest {
  testing: boolean;
  outcome: CloudTestOutcome | null;
  /** Runs the test; resolves to what it answered (also kept in `outcome`). */
  run: (body: CloudConfig, headers?: Record<string, string>) => Promise<CloudTestOutcome>;
  clear: () => void;
}

export function useCloudTest(): CloudTest {
  const [testing, setTesting] = useState(false);
  const [outcome, setOutcome] = useState<CloudTestOutcome | null>(null);
  const run = useCallback(async (body: CloudConfig, headers?: Record<string, string>): Promise<CloudTestOutcome> => {
    setTesting(true);
    setOutcome(null);
    let next: CloudTestOutcome;
    try {
      const answer = await testCloudConfig(body, headers);
      next = answer === 'unavailable' ? { unavailable: true } : answer;
    } catch (err) {
      next = { failure: errorMessage(err) };
    }
    setOutcome(next);
    setTesting(false);
    return next;
  }, []);
  const clear = useCallback(() => setOutcome(null), []);
  return { testing, outcome, run, clear };
}

/** Whether saving may go on after this test: it connected, or this gateway cannot test. */
export function testAllowsSaving(outcome: CloudTestOutcome): boolean {
  return 'unavailable' in outcome || ('ok' in outcome && outcome.ok);
}
