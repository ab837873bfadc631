/** Where the activation wizard resumes, from the gateway's setup state. */
import type { SetupState } from '../../../server/contract/license.ts';
import { consolePaths } from '../../../server/contract/console-paths.ts';

export const GuideStep = { license: 0, cloud: 1, admin: 2 } as const;
export type GuideStep = (typeof GuideStep)[keyof typeof GuideStep];

/**
 * The page to leave the wizard for, or null to stay. Once an administrator exists the wizard is
 * done: sign in, or (licence missing or expired) sign in and upload on the licence page.
 */
export function leaveGuideFor(state: SetupState): string | null {
  if (!state.adminCreated) return null;
  return state.licensed && !state.licenseExpired ? consolePaths.login : consolePaths.expiredLicense;
}

/** The step to show: licence until a valid one is installed, then cloud unless done or skipped. */
export function resumeStep(state: SetupState, cloudSkipped: boolean): GuideStep {
  if (!state.licensed || state.licenseExpired) return GuideStep.license;
  if (state.cloudConfigured || cloudSkipped) return GuideStep.admin;
  return GuideStep.cloud;
}
