/** First boot over HTTP, for e2e specs that start at the wizard's cloud step. */
import { expect } from 'vitest';
import { licenseRoutes, SETUP_CODE_HEADER } from '../../server/contract/license.ts';
import type { E2eGateway } from './e2e-gateway.ts';

/** Uploads the gateway's licence with the setup code: the wizard resumes at the cloud step. */
export async function uploadLicence(gateway: E2eGateway): Promise<void> {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(gateway.license())]), 'edge.lic');
  const res = await fetch(`${gateway.url}${licenseRoutes.upload.url}`, { method: 'POST', headers: { [SETUP_CODE_HEADER]: gateway.setupCode ?? '' }, body: form });
  expect(res.status, await res.text()).toBe(200);
}
