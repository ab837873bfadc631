/**
 * Reading the one file of a multipart upload (`@fastify/multipart` registered in the calling
 * module's scope with the 5 MB limit), with the same refusals for every upload route.
 */
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ErrorCode } from '../contract/errors.ts';
import { UPLOAD_MAX_BYTES } from '../contract/validation.ts';
import { AppError } from './app-error.ts';

/**
 * Registers the multipart parser in the calling module's scope (so only its routes accept
 * uploads) with the one set of limits every upload shares: one file of at most 5 MB.
 */
export async function registerUploads(app: FastifyInstance): Promise<void> {
  await app.register(multipart, {
    limits: { fileSize: UPLOAD_MAX_BYTES, files: 1, fields: 4, fieldSize: 1024, parts: 5, headerPairs: 50 },
  });
}

export function uploadTooLarge(): AppError {
  return new AppError(ErrorCode.BAD_REQUEST_PARAMS, 'error.upload.tooLarge', { size: `${UPLOAD_MAX_BYTES / 1024 / 1024} MB` }, { status: 413 });
}

export function uploadFileRequired(field: string): AppError {
  return new AppError(ErrorCode.BAD_REQUEST_PARAMS, 'error.upload.fileRequired', {}, {
    details: [{ field, key: 'error.upload.fileRequired', message: `multipart field "${field}" is missing` }],
  });
}

export interface UploadedFile {
  /** The client's file name: for checking the extension only, never for storing. */
  filename: string;
  content: Buffer;
}

/** The file in multipart field `field`, read whole; refuses a missing, empty or oversized file. */
export async function readUploadedFile(request: FastifyRequest, field = 'file'): Promise<UploadedFile> {
  if (!request.isMultipart()) throw uploadFileRequired(field);
  const part = await request.file();
  if (!part) throw uploadFileRequired(field);
  if (part.fieldname !== field) {
    part.file.resume(); // drain it so the request can finish
    throw uploadFileRequired(field);
  }
  // toBuffer() throws past the limit only when the cut falls inside a chunk it is still reading;
  // over a real socket it can hand back the first 5 MB silently. `truncated` tells either way.
  const content = await part.toBuffer();
  if (part.file.truncated) throw uploadTooLarge();
  if (content.length === 0) throw uploadFileRequired(field);
  return { filename: part.filename, content };
}
