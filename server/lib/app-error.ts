import { ErrorCode, type ErrorKey } from '../contract/errors.ts';

/** Default HTTP status for each error code; a throw site may override it. */
const statusOf: Record<number, number> = {
  [ErrorCode.GENERAL]: 500,
  [ErrorCode.AUTHENTICATION]: 401,
  [ErrorCode.TOKEN_EXPIRED]: 401,
  [ErrorCode.PERMISSION_DENIED]: 403,
  [ErrorCode.INVALID_ARGUMENTS]: 400,
  [ErrorCode.BAD_REQUEST_PARAMS]: 400,
  [ErrorCode.ITEM_NOT_FOUND]: 404,
  [ErrorCode.TOO_MANY_REQUESTS]: 429,
  [ErrorCode.VERSION_CONFLICT]: 409,
  [ErrorCode.LIMIT_EXCEEDED]: 400,
  [ErrorCode.PASSWORD_POLICY]: 400,
  [ErrorCode.DATABASE]: 500,
  [ErrorCode.LICENSE]: 403,
};

export interface ErrorDetail {
  field: string;
  key?: string;
  message: string;
}

/**
 * The one error type services throw. The errors plugin turns it into the API's error body
 * (docs/API.md, Errors), translating `key` (with `params` interpolated) into the request's language.
 */
export class AppError extends Error {
  readonly statusCode: number;
  constructor(
    readonly code: ErrorCode,
    readonly key: ErrorKey,
    readonly params: Record<string, string | number> = {},
    options: { status?: number; details?: ErrorDetail[]; expected?: boolean } = {},
  ) {
    super(key);
    this.statusCode = options.status ?? statusOf[code] ?? 500;
    this.details = options.details;
    this.expected = options.expected ?? false;
  }
  readonly details: ErrorDetail[] | undefined;
  /**
   * A 5xx that is normal operation (ThingsBoard's 504 for an RPC to an offline device, or one that
   * timed out): logged at info without a stack, not as a server failure (server/plugins/errors.ts).
   */
  readonly expected: boolean;
}
