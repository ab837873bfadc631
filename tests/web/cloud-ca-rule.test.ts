import { describe, expect, it } from 'vitest';
import { PLATFORM_CA_MAX_BYTES } from '../../server/contract/cloud.ts';
import { certificateBlocks, cloudCaProblem } from '../../server/contract/rules/cloud-ca.ts';
import { toCloudConfig } from '../../web/features/cloud/cloudForm.ts';

const BLOCK = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----';

describe('cloud CA rule (browser side of the server check)', () => {
  it('passes nothing chosen, and PEM certificate blocks with text around them', () => {
    expect(cloudCaProblem(undefined)).toBeNull();
    expect(cloudCaProblem('')).toBeNull();
    expect(cloudCaProblem(`subject=CN=Root\n${BLOCK}\n${BLOCK}\n`)).toBeNull();
    expect(certificateBlocks(`${BLOCK}\n${BLOCK}`)).toHaveLength(2);
  });

  it('refuses text without a certificate, a key among the certificates, and a file over the size', () => {
    expect(cloudCaProblem('hello')).toEqual({ key: 'error.cloud.caInvalid' });
    expect(cloudCaProblem(`${BLOCK}\n-----BEGIN PRIVATE KEY-----\nAA\n-----END PRIVATE KEY-----`)).toEqual({ key: 'error.cloud.caInvalid' });
    expect(cloudCaProblem(`${BLOCK}\n${'x'.repeat(PLATFORM_CA_MAX_BYTES)}`)).toMatchObject({ key: 'error.cloud.caTooLarge' });
  });

  it('sends the CA only when the form changed it: undefined keeps the stored one, empty removes it', () => {
    const base = { platformAddress: 'cloud.example.com', platformPort: '8883', platformKey: 'k' };
    expect(toCloudConfig(base)).not.toHaveProperty('platformCaPem');
    expect(toCloudConfig({ ...base, platformCaPem: '' })).toMatchObject({ platformCaPem: '' });
    expect(toCloudConfig({ ...base, platformCaPem: BLOCK })).toMatchObject({ platformCaPem: BLOCK });
  });
});
