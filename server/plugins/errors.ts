/**
 * The one error handler: every failure leaves as the API's error body (docs/API.md, Errors)
 * `{ code, key, message, details? }` with the message in the request's language. User input never
 * produces a 500; unexpected errors are logged and answered without internals.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ErrorCode, type ErrorKey } from '../contract/errors.ts';
import { AppError, type ErrorDetail } from '../lib/app-error.ts';
import { langFromAcceptLanguage, translate } from '../lib/messages.ts';
import { UPLOAD_MAX_BYTES } from '../contract/validation.ts';
import { diskFullError, isOutOfSpace } from '../lib/disk-full.ts';

/**
 * Requests answered with a 5xx their throw site marked `expected` (AppError): normal operation,
 * logged at info without a stack. Every other 5xx (a proxy whose upstream is down, a full disk, a
 * lost database) is a state the operator must hear of and stays a warning.
 */
const deliberate = new WeakSet<FastifyRequest>();

/** Whether `request` was answered with a 5xx the code chose (request-log.ts logs it at info). */
export function answeredDeliberately(request: FastifyRequest): boolean {
  return deliberate.has(request);
}

export function sendError(request: FastifyRequest, reply: FastifyReply, err: AppError): FastifyReply {
  const lang = langFromAcceptLanguage(request.headers['accept-language']);
  // A refusal that knows when the caller may try again says so in the standard header as well.
  if (err.code === ErrorCode.TOO_MANY_REQUESTS && typeof err.params.seconds === 'number') {
    reply.header('Retry-After', String(err.params.seconds));
  }
  return reply
    .code(err.statusCode)
    .type('application/json; charset=utf-8')
    .send({
      code: err.code,
      key: err.key,
      message: translate(lang, err.key, err.params),
      ...(err.details ? { details: err.details } : {}),
    });
}

/** Fastify/ajv validation output → field details with the raw validator text. */
function validationDetails(err: FastifyError): ErrorDetail[] {
  return (err.validation ?? []).map((v) => {
    const missing = (v.params as { missingProperty?: string }).missingProperty;
    const path = v.instancePath.replace(/^\//, '').replace(/\//g, '.');
    const field = [err.validationContext, path || missing].filter(Boolean).join('.');
    return { field: field || String(err.validationContext ?? ''), message: v.message ?? v.keyword };
  });
}

function megabytes(bytes: number): string {
  return `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`;
}

/** `bodyLimit` is the refused route's own limit (the app's 1 MB, or more for model files). */
function toAppError(err: FastifyError, bodyLimit: number): AppError {
  if (err instanceof AppError) return err;
  // A full disk is the gateway's state, not a fault in it: the caller may try again once space returns.
  if (isOutOfSpace(err)) return diskFullError();
  if (err.validation) {
    return new AppError(ErrorCode.BAD_REQUEST_PARAMS, 'error.validation', {}, { status: 400, details: validationDetails(err) });
  }
  const byCode: Record<string, [ErrorCode, ErrorKey, number, Record<string, string | number>?]> = {
    FST_ERR_CTP_BODY_TOO_LARGE: [ErrorCode.BAD_REQUEST_PARAMS, 'error.payloadTooLarge', 413, { size: megabytes(bodyLimit) }],
    FST_REQ_FILE_TOO_LARGE: [ErrorCode.BAD_REQUEST_PARAMS, 'error.upload.tooLarge', 413, { size: `${UPLOAD_MAX_BYTES / 1024 / 1024} MB` }],
    FST_ERR_CTP_INVALID_MEDIA_TYPE: [ErrorCode.BAD_REQUEST_PARAMS, 'error.unsupportedMediaType', 415],
    FST_INVALID_MULTIPART_CONTENT_TYPE: [ErrorCode.BAD_REQUEST_PARAMS, 'error.unsupportedMediaType', 415],
    FST_ERR_CTP_EMPTY_JSON_BODY: [ErrorCode.BAD_REQUEST_PARAMS, 'error.validation', 400],
    FST_ERR_CTP_INVALID_JSON_BODY: [ErrorCode.BAD_REQUEST_PARAMS, 'error.validation', 400],
    FST_PARTS_LIMIT: [ErrorCode.BAD_REQUEST_PARAMS, 'error.validation', 400],
    FST_FILES_LIMIT: [ErrorCode.BAD_REQUEST_PARAMS, 'error.validation', 400],
    FST_PROTO_VIOLATION: [ErrorCode.BAD_REQUEST_PARAMS, 'error.validation', 400],
  };
  const mapped = err.code ? byCode[err.code] : undefined;
  if (mapped) return new AppError(mapped[0], mapped[1], mapped[3] ?? {}, { status: mapped[2] });
  // Body parser errors (malformed JSON etc.) carry a 4xx status and are the client's fault.
  if (err.statusCode === 429) return new AppError(ErrorCode.TOO_MANY_REQUESTS, 'error.tooManyRequests');
  if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
    return new AppError(ErrorCode.BAD_REQUEST_PARAMS, 'error.validation', {}, { status: err.statusCode });
  }
  return new AppError(ErrorCode.GENERAL, 'error.internal', {}, { status: 500 });
}

async function errorsPlugin(app: FastifyInstance): Promise<void> {
  app.setErrorHandler((err: FastifyError, request, reply) => {
    const appErr = toAppError(err, request.routeOptions.bodyLimit);
    if (appErr.statusCode >= 500 && appErr.expected) {
      deliberate.add(request);
      request.log.info({ key: appErr.key, status: appErr.statusCode }, 'request refused with a server status');
    } else if (appErr.statusCode >= 500) request.log.error({ err }, 'request failed');
    else request.log.debug({ err: err.message, code: err.code }, 'request refused');
    return sendError(request, reply, appErr);
  });
  app.setNotFoundHandler((request, reply) =>
    sendError(request, reply, routeNotFound(request.method, request.url.split('?')[0] ?? '')),
  );
}

export function routeNotFound(method: string, url: string): AppError {
  return new AppError(ErrorCode.ITEM_NOT_FOUND, 'error.routeNotFound', { method, url }, { status: 404 });
}

export default fp(errorsPlugin, { name: 'errors' });
