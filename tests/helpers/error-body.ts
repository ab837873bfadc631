/** Assertions on the API's error body `{ code, key, message, details? }` (docs/API.md, Errors). */
import { expect } from 'vitest';
import type { Response } from 'light-my-request';
import type { ErrorBody } from '../../server/contract/errors.ts';

/** Checks status, code and key, and that a human message came along; returns the body. */
export function expectError(res: Response, status: number, code: number, key: string): ErrorBody {
  expect(res.statusCode, res.body).toBe(status);
  const body = res.json() as ErrorBody;
  expect(body).toMatchObject({ code, key });
  expect(typeof body.message).toBe('string');
  expect(body.message.length).toBeGreaterThan(0);
  expect(body.message).not.toBe(key);
  return body;
}
