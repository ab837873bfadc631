/**
 * First-boot calls of the activation wizard. Every write carries the setup code; the code lives in
 * this tab's sessionStorage only (never localStorage), so a reload resumes without retyping it.
 */
import { licenseRoutes, SETUP_CODE_HEADER, type SetupAdminBody } from '../../../server/contract/license.ts';
import { api } from '../../lib/api-client.ts';

const CODE_KEY = 'edge-console.setup-code';
const CLOUD_SKIPPED_KEY = 'edge-console.cloud-skipped';

/** Error keys that mean the setup code is missing or wrong. */
export const setupCodeErrorKeys: readonly string[] = ['error.setup.codeRequired', 'error.setup.codeInvalid'];

function session(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

export const setupCodeStore = {
  get(): string {
    return session()?.getItem(CODE_KEY) ?? '';
  },
  set(code: string): void {
    session()?.setItem(CODE_KEY, code);
  },
  clear(): void {
    session()?.removeItem(CODE_KEY);
    session()?.removeItem(CLOUD_SKIPPED_KEY);
  },
};

/** Whether step 2 was skipped in this tab, so a reload resumes at step 3. */
export const cloudSkipStore = {
  get(): boolean {
    return session()?.getItem(CLOUD_SKIPPED_KEY) === '1';
  },
  set(): void {
    session()?.setItem(CLOUD_SKIPPED_KEY, '1');
  },
};

const withCode = (code: string): Record<string, string> => ({ [SETUP_CODE_HEADER]: code.trim() });

export function createAdmin(body: SetupAdminBody, code: string): Promise<unknown> {
  return api(licenseRoutes.setupAdmin, { body, headers: withCode(code), silent: true });
}
