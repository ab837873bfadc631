/**
 * The cloud's REST base of the cloud configuration (server/contract/cloud.ts): empty (no cloud
 * sign-in) or an http(s) address the schema's pattern and length admit.
 */
import { HTTP_URL_PATTERN, PLATFORM_HTTP_URL_MAX } from '../cloud.ts';
import { isBlank, problem, type Problem } from './problem.ts';

const httpUrl = new RegExp(HTTP_URL_PATTERN);

export function cloudHttpUrlProblem(value: unknown): Problem | null {
  if (isBlank(value)) return null;
  return typeof value === 'string' && value.trim().length <= PLATFORM_HTTP_URL_MAX && httpUrl.test(value.trim())
    ? null
    : problem('error.cloud.httpUrlInvalid', { max: PLATFORM_HTTP_URL_MAX });
}
