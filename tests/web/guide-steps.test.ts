import { describe, expect, it } from 'vitest';
import type { SetupState } from '../../server/contract/license.ts';
import { GuideStep, leaveGuideFor, resumeStep } from '../../web/features/guide/guideSteps.ts';

const fresh: SetupState = { licensed: false, licenseExpired: false, cloudConfigured: false, adminCreated: false, deviceSn: 'SN1' };

describe('where the activation wizard resumes', () => {
  it('starts with the licence on a fresh gateway', () => {
    expect(resumeStep(fresh, false)).toBe(GuideStep.license);
  });

  it('asks for a new licence when the installed one has expired', () => {
    expect(resumeStep({ ...fresh, licensed: true, licenseExpired: true }, false)).toBe(GuideStep.license);
  });

  it('goes on to the cloud step once licensed', () => {
    expect(resumeStep({ ...fresh, licensed: true }, false)).toBe(GuideStep.cloud);
  });

  it('goes to the administrator step when the cloud is configured or was skipped', () => {
    expect(resumeStep({ ...fresh, licensed: true, cloudConfigured: true }, false)).toBe(GuideStep.admin);
    expect(resumeStep({ ...fresh, licensed: true }, true)).toBe(GuideStep.admin);
  });

  it('stays in the wizard until an administrator exists', () => {
    expect(leaveGuideFor({ ...fresh, licensed: true, cloudConfigured: true })).toBeNull();
  });

  it('sends to sign-in once an administrator exists and the licence is valid', () => {
    expect(leaveGuideFor({ ...fresh, licensed: true, adminCreated: true })).toBe('/login');
  });

  it('sends to the licence page when an administrator exists but the licence is missing or expired', () => {
    expect(leaveGuideFor({ ...fresh, adminCreated: true })).toBe('/expired-upload-license');
    expect(leaveGuideFor({ ...fresh, licensed: true, licenseExpired: true, adminCreated: true })).toBe('/expired-upload-license');
  });
});
